import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fastAnswer } from '../cli/fast-answer.js';
import { mayRunQuick } from '../cli/quick-names.js';
import { commandFinished, endQuietlyWhenReaderCloses } from './closed-output.js';
import { exitWhenDone, processIo } from './process-run.js';
import type * as QuickBundle from './quick.js';

// Entry point of the npm bundle, built as CommonJS (dist/appimage-keeper.cjs): Node starts a
// CommonJS file measurably faster than an ES module, and this file runs on every command. It
// answers `--version` and completion without loading the rest of the CLI (fast-answer.ts), runs
// `list` and `validate` from the quick bundle (dist/quick.cjs, one CommonJS file without
// commander), and hands everything else to bin.ts, the ES module CLI.
const argv = process.argv.slice(2);
const answer = fastAnswer(argv, join(__dirname, 'completions'));
if (answer !== undefined) {
  // bin.ts watches for a closed pipe itself; this answer is complete once written.
  endQuietlyWhenReaderCloses();
  commandFinished(0);
  process.stdout.write(answer);
} else if (!runQuickly()) void import('./bin.js');

// Runs a quick command line from the quick bundle; false when the full CLI must read it.
function runQuickly(): boolean {
  if (!mayRunQuick(argv)) return false;
  const quick = createRequire(__filename)('./quick.cjs') as typeof QuickBundle;
  const running = quick.runQuick(processIo());
  if (running === undefined) return false;
  exitWhenDone(running);
  return true;
}
