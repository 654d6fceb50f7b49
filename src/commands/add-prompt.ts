/**
 * `add`'s numbered prompt, on a terminal only (stdin and stderr TTYs, not --json): which of a
 * release's AppImages the recipe should follow. Names come from a forge, so they are escaped.
 */
import type { Output } from '../render/output.js';
import { termText } from '../render/terminal-text.js';

/** At most this many candidates are offered; more is answered with the flags. */
export const MAX_CHOICES = 30;

/** The prompt as `add` calls it, or undefined when there is no one to ask. */
export function assetPrompt(
  out: Output,
  stdin: NodeJS.ReadableStream | undefined,
  json: boolean,
): ((candidates: string[]) => Promise<string | undefined>) | undefined {
  const tty = (s: unknown): boolean => (s as { isTTY?: boolean } | undefined)?.isTTY === true;
  if (json || !stdin || !tty(stdin) || !tty(out.stderr)) return undefined;
  return async (candidates) => {
    if (candidates.length > MAX_CHOICES) return undefined;
    const lines = candidates.map((c, i) => `  ${String(i + 1).padStart(2)}) ${termText(c)}`);
    out.stderr.write(
      `the release has ${candidates.length} AppImages for this machine:\n${lines.join('\n')}\n`,
    );
    // Loaded here: `add`'s module is imported at every start-up, and only this prompt needs it.
    const { createInterface } = process.getBuiltinModule('node:readline/promises');
    const rl = createInterface({ input: stdin, output: out.stderr });
    try {
      for (let round = 0; round < 3; round++) {
        const answer = (
          await rl.question(`follow which one? [1-${candidates.length}, empty to stop] `)
        ).trim();
        if (answer === '') return undefined;
        const n = Number(answer);
        if (Number.isInteger(n) && n >= 1 && n <= candidates.length) return candidates[n - 1];
      }
      return undefined;
    } finally {
      rl.close();
    }
  };
}
