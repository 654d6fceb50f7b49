/**
 * `adopt`'s yes/no question for a catalogue match, on a terminal only (stdin and stderr TTYs, not
 * --json): the match is a guess, so it is shown and taken only on an explicit yes.
 */
import type { AdoptRow } from '../app/adopt/adopt.js';
import type { Output } from '../render/output.js';
import { termPath, termText } from '../render/terminal-text.js';

/** The question as `adopt` calls it, or undefined when there is no one to ask. */
export function matchConfirm(
  out: Output,
  stdin: NodeJS.ReadableStream | undefined,
  json: boolean,
): ((row: AdoptRow) => Promise<boolean>) | undefined {
  const tty = (s: unknown): boolean => (s as { isTTY?: boolean } | undefined)?.isTTY === true;
  if (json || !stdin || !tty(stdin) || !tty(out.stderr)) return undefined;
  return async (row) => {
    const fit = row.match?.fit === undefined ? '' : `; ${termText(row.match.fit, 400)}`;
    out.stderr.write(`${termPath(row.file)}: ${termText(row.source ?? '', 400)}${fit}\n`);
    const { createInterface } = process.getBuiltinModule('node:readline/promises');
    const rl = createInterface({ input: stdin, output: out.stderr });
    try {
      const answer = await rl.question(`adopt it as ${termText(row.name ?? '')} from this source? [y/N] `);
      return /^y(es)?$/i.test(answer.trim());
    } finally {
      rl.close();
    }
  };
}
