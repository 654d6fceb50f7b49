// The test command's terminal report: a mark per top-level test while the run goes, then every
// failure with its error, then node's totals, last (where a reader and CI look). The full TAP
// goes to a file beside it (scripts/run-tests.mjs names it), so nothing is lost.
import { inspect } from 'node:util';

const WIDTH = 80;
const ERROR_LINES = 40;

/** One failure for the report: where, which test, and its error cut to ERROR_LINES lines. */
function failureText(data) {
  const error = data.details?.error;
  const cause = error?.cause ?? error;
  // The runner's own frames say nothing about the test.
  const text = inspect(cause, { depth: 4, colors: false })
    .split('\n')
    .filter((l) => !/^\s+at .*\(?node:(internal|async_hooks)/.test(l));
  const shown =
    text.length > ERROR_LINES
      ? [...text.slice(0, ERROR_LINES), `… (${text.length - ERROR_LINES} more lines in the full log)`]
      : text;
  const where = data.file ? `${data.file}${data.line ? `:${data.line}` : ''}` : '(no file)';
  return [`✖ ${data.name}`, `  ${where}`, ...shown.map((l) => `    ${l}`)].join('\n');
}

/** node:test reporter: marks as tests finish; failures, then totals, at the end. */
export default async function* summaryReporter(source) {
  const failures = [];
  const diagnostics = [];
  let column = 0;
  const mark = (c) => {
    column = (column + 1) % WIDTH;
    return column === 0 ? `${c}\n` : c;
  };
  for await (const { type, data } of source) {
    if (type === 'test:pass' && data.nesting === 0)
      yield mark(data.skip !== undefined || data.todo !== undefined ? 's' : '.');
    else if (type === 'test:fail') {
      if (data.nesting === 0) yield mark('F');
      // A suite that failed only because a test inside it did adds nothing: the test is listed.
      if (data.details?.error?.failureType !== 'subtestsFailed') failures.push(data);
    } else if (type === 'test:diagnostic' && data.nesting === 0) diagnostics.push(data.message);
  }
  if (column !== 0) yield '\n';
  if (failures.length > 0) {
    yield `\n${failures.length} failed:\n\n${failures.map(failureText).join('\n\n')}\n\n`;
  }
  yield diagnostics.map((m) => `# ${m}`).join('\n') + '\n';
  const count = (word) =>
    Number(diagnostics.find((m) => m.startsWith(`${word} `))?.slice(word.length + 1) ?? 0);
  const skipped = count('skipped');
  yield `${count('pass')} passed, ${count('fail')} failed${skipped ? `, ${skipped} skipped` : ''}\n`;
}
