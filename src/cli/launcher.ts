import { fastAnswer } from './fast-answer.js';

// Entry point of the npm bundle: answers `--version` and `completion SHELL` without loading the
// rest of the CLI (see fast-answer.ts), and hands everything else to bin.ts.
const answer = fastAnswer(process.argv.slice(2), new URL('./completions/', import.meta.url));
if (answer === undefined) await import('./bin.js');
else process.stdout.write(answer);
