/**
 * Which words `add` reads as a catalogue name, and the command we print to add a catalogue entry.
 * Catalogue names are free text from whoever submits an entry (`Visual Studio Code`, `-rf`,
 * `Foo && curl … | sh`): a printed command must reach `add` as exactly that one name, or name the
 * entry's repository instead.
 */
import { shellCommand } from '../../core/shell-quote.js';

/** Longest catalogue name `add` looks up (AppImageHub allows 200 characters). */
const MAX_NAME = 200;

// Characters a name may not hold: what a terminal hides, reorders or acts on (control, format such
// as zero-width and bidi, unassigned, private use), and separators other than a plain space.
const INVISIBLE = /[\p{C}\p{Zl}\p{Zp}]|(?! )\s/u;

/**
 * True when `add` looks `input` up in the catalogues: visible text without `/`, `:` or `@` (which
 * make it a URL, `owner/repo` or `git@host:…`) that is not an AppImage file name.
 */
export function isCatalogueName(input: string): boolean {
  const name = input.trim();
  return (
    name.length > 0 &&
    name.length <= MAX_NAME &&
    !/[/:@]/.test(name) &&
    !/\.appimage$/i.test(name) &&
    !INVISIBLE.test(name)
  );
}

/** True when `name`, printed quoted, reaches `add` as itself and finds its own entry. */
export function isPasteableName(name: string): boolean {
  return name === name.trim() && isCatalogueName(name);
}

/** What a catalogue entry offers `add`. */
export interface AddableEntry {
  name: string;
  repository?: string | null | undefined;
  download?: string | null | undefined;
}

/**
 * The command that adds `entry`: by its name when that can be pasted, else by its repository or
 * download URL; undefined when it offers neither.
 */
export function addCommandFor(entry: AddableEntry): string | undefined {
  if (isPasteableName(entry.name)) return shellCommand(['appimage-keeper', 'add'], [entry.name]);
  const target = entry.repository ?? entry.download;
  return target ? shellCommand(['appimage-keeper', 'add'], [target]) : undefined;
}
