import { didYouMean } from '../config/did-you-mean.js';

/**
 * Commands other AppImage managers and package managers have, mapped to ours: `to` is our command,
 * `flags` what it needs to do the same thing (`install` = add a recipe, then install it).
 */
const HABITS: Readonly<Record<string, { to: string; flags?: string }>> = {
  install: { to: 'add', flags: '--install' },
  uninstall: { to: 'remove' },
  rm: { to: 'remove' },
  upgrade: { to: 'update' },
  ls: { to: 'list' },
  show: { to: 'info' },
};

/** What `install`/`add` take when the word after it is missing or unsafe to repeat. */
const PLACEHOLDER: Readonly<Record<string, string>> = { add: 'NAME', remove: 'APP' };

/** A word safe to echo back as part of a command line people may paste. */
function pasteable(word: string | undefined): word is string {
  return word !== undefined && word.length <= 100 && /^[A-Za-z0-9][\w.@+-]*$/.test(word);
}

/**
 * The command line to suggest for an unknown command `word` followed by `rest`: a habit from
 * another tool (`install joplin` → `add joplin --install`) or the nearest command name.
 */
export function suggestCommand(
  word: string,
  rest: readonly string[],
  known: readonly string[],
): string | undefined {
  const habit = HABITS[word.toLowerCase()];
  if (habit && known.includes(habit.to)) {
    const target = rest[0];
    const name = pasteable(target) ? target : PLACEHOLDER[habit.to];
    // `upgrade` alone means "everything", which is `update` alone.
    return [habit.to, name, habit.flags].filter((p) => p !== undefined).join(' ');
  }
  return didYouMean(word, known);
}
