import { runCli } from '../main.js';
import { exitWhenDone, processIo } from './process-run.js';

// Entry point of the bundled binary. No top-level await: the standalone executable is built from
// a CommonJS bundle of this same file, and CommonJS has none.
exitWhenDone(runCli(processIo()));
