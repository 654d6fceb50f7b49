// What the program does when whoever reads its output goes away (`appimage-keeper --help | head -1`).
// Node ignores SIGPIPE, so a write to a closed pipe fails with EPIPE, and an unhandled stream error
// would end the program with a stack trace and exit 1. Imported by the entry points only (the npm
// launcher, bin.ts, the standalone entry): runCli itself writes to whatever streams it is given.

/** Exit status when the reader left before the command had finished: 128 + SIGPIPE, as shells report a program SIGPIPE ended. */
export const READER_GONE_EXIT = 141;

let finishedWith: number | undefined;

/** Records the command's exit code, which a later closed pipe keeps (the reader only missed output). */
export function commandFinished(code: number): void {
  finishedWith = code;
}

/**
 * Ends the program quietly when stdout or stderr is a pipe whose reader has closed: nothing more
 * can be shown, so it stops at once (as a program SIGPIPE ends would). The exit code is the
 * command's own when it had already finished (its final output is what went unread), and 141 when
 * it was cut short. Other stream errors are left to Node.
 */
export function endQuietlyWhenReaderCloses(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      process.exit(finishedWith ?? READER_GONE_EXIT);
    });
  }
}
