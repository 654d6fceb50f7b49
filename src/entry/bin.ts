import { runCli } from '../main.js';
import { commandFinished, endQuietlyWhenReaderCloses } from './closed-output.js';

// Entry point of the bundled binary. No top-level await: the standalone executable is built from
// a CommonJS bundle of this same file, and CommonJS has none.
endQuietlyWhenReaderCloses();
void runCli({
  argv: process.argv.slice(2),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  // On first use only: process.stdin sets up a stream (a socket for a pipe) that only `edit` reads.
  get stdin() {
    return process.stdin;
  },
}).then((code) => {
  commandFinished(code);
  process.exitCode = code;
});
