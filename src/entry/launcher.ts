import { join } from 'node:path';
import { fastAnswer } from '../cli/fast-answer.js';
import { commandFinished, endQuietlyWhenReaderCloses } from './closed-output.js';
import { enableCompileCache } from './compile-cache.js';

// Entry point of the npm bundle, built as CommonJS (dist/appimage-keeper.cjs): Node starts a
// CommonJS file measurably faster than an ES module, and this file runs on every command. It
// answers `--version` and completion without loading the rest of the CLI (fast-answer.ts) and
// hands everything else to bin.ts, the ES module CLI (one command line parser: commander).
const answer = fastAnswer(process.argv.slice(2), join(__dirname, 'completions'));
if (answer !== undefined) {
  // bin.ts watches for a closed pipe itself; this answer is complete once written.
  endQuietlyWhenReaderCloses();
  commandFinished(0);
  process.stdout.write(answer);
} else {
  enableCompileCache(process.env);
  void import('./bin.js');
}
