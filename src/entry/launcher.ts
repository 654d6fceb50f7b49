import { join } from 'node:path';
import { fastAnswer } from '../cli/fast-answer.js';
import { commandFinished, endQuietlyWhenReaderCloses } from './closed-output.js';

// Entry point of the npm bundle, built as CommonJS (dist/appimage-keeper.cjs): Node starts a
// CommonJS file measurably faster than an ES module, and this file runs on every `--version` and
// every shell completion. It answers those without loading the rest of the CLI (fast-answer.ts)
// and hands everything else to bin.ts, the ES module CLI.
const answer = fastAnswer(process.argv.slice(2), join(__dirname, 'completions'));
if (answer === undefined) void import('./bin.js');
else {
  // bin.ts watches for a closed pipe itself; this answer is complete once written.
  endQuietlyWhenReaderCloses();
  commandFinished(0);
  process.stdout.write(answer);
}
