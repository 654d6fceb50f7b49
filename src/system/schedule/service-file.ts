/**
 * Reads back what an installed service runs: its `ExecStart=` command lines and the `PATH` it sets.
 * The file may have been edited by hand, so it is parsed as untrusted text.
 */
import { splitUnitWords } from './unit-words.js';

/** The first line of every unit we write: how `doctor` tells our units from the user's own. */
export const UNIT_HEADER =
  '# Written by `appimage-keeper schedule install`; `appimage-keeper schedule remove` deletes it.';

/** What a service runs, or why that cannot be read. */
export type ServiceCommands =
  | {
      ok: true;
      /** argv of each `ExecStart=` in order (prefix characters such as `-` removed). */
      commands: string[][];
      /** The `PATH` from `Environment=`, when the service sets one. */
      path: string | undefined;
    }
  | { ok: false; reason: string };

/** Logical lines of the [Service] section as `key`/`value` pairs (continuation lines joined). */
function serviceSettings(text: string): { key: string; value: string; line: number }[] {
  const out: { key: string; value: string; line: number }[] = [];
  let section = '';
  let pending: { text: string; line: number } | undefined;
  // systemd ends a line at \n, \r\n or a lone \r; the extra empty line ends a trailing continuation.
  const lines = [...text.split(/\r\n|\r|\n/), ''];
  for (const [index, raw] of lines.entries()) {
    const current = pending
      ? { text: `${pending.text} ${raw}`, line: pending.line }
      : { text: raw, line: index + 1 };
    pending = undefined;
    const trimmed = current.text.trim();
    if (!trimmed || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    if (trimmed.endsWith('\\')) {
      pending = { text: current.text.replace(/\\\s*$/, ''), line: current.line };
      continue;
    }
    if (trimmed.startsWith('[')) {
      section = trimmed;
      continue;
    }
    const eq = trimmed.indexOf('=');
    if (section !== '[Service]' || eq <= 0) continue;
    out.push({ key: trimmed.slice(0, eq).trim(), value: trimmed.slice(eq + 1).trim(), line: current.line });
  }
  return out;
}

/** Removes ExecStart's prefix characters (`-@:+!`); with `@` the second word is argv[0], not an argument. */
function commandOf(words: string[]): string[] {
  const [first = '', ...rest] = words;
  const prefix = /^[-@:+!]*/.exec(first)?.[0] ?? '';
  const program = first.slice(prefix.length);
  return [program, ...(prefix.includes('@') ? rest.slice(1) : rest)];
}

/** A drop-in of the service (`<unit>.d/*.conf`, as `systemctl --user edit` writes), in name order. */
export interface DropIn {
  file: string;
  text: string;
}

/**
 * Parses the service's `ExecStart=` lines (an empty one resets the list, as in systemd) and
 * `Environment=PATH`, with its drop-ins applied after it in order, as systemd reads them.
 */
export function readServiceCommands(text: string, dropIns: readonly DropIn[] = []): ServiceCommands {
  const commands: string[][] = [];
  let path: string | undefined;
  const sources = [{ where: '', text }, ...dropIns.map((d) => ({ where: ` of ${d.file}`, text: d.text }))];
  for (const source of sources) {
    for (const s of serviceSettings(source.text)) {
      const at = `on line ${s.line}${source.where}`;
      if (s.key === 'ExecStart') {
        if (s.value === '') {
          commands.length = 0;
          continue;
        }
        const words = splitUnitWords(s.value, { dollar: true });
        if (!words.ok) return { ok: false, reason: `ExecStart= ${at} ${words.reason}` };
        const argv = commandOf(words.words);
        if (!argv[0]) return { ok: false, reason: `ExecStart= ${at} names no program` };
        commands.push(argv);
      } else if (s.key === 'Environment') {
        const words = splitUnitWords(s.value, { dollar: false });
        if (!words.ok) return { ok: false, reason: `Environment= ${at} ${words.reason}` };
        for (const w of words.words) if (w.startsWith('PATH=')) path = w.slice('PATH='.length);
      }
    }
  }
  if (commands.length === 0) return { ok: false, reason: 'it has no ExecStart= line' };
  return { ok: true, commands, path };
}
