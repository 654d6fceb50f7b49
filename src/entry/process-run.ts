import type { CliIo } from '../cli/invocation.js';
import { commandFinished, endQuietlyWhenReaderCloses } from './closed-output.js';

/** This process's command line, environment and streams, as the CLI reads them. */
export function processIo(): CliIo {
  return {
    argv: process.argv.slice(2),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    // On first use only: process.stdin sets up a stream (a socket for a pipe) that only `edit` reads.
    get stdin() {
      return process.stdin;
    },
  };
}

/** Ends the process with the exit code of the running command, quietly if its reader goes away. */
export function exitWhenDone(running: Promise<number>): void {
  endQuietlyWhenReaderCloses();
  void running.then((code) => {
    commandFinished(code);
    process.exitCode = code;
  });
}
