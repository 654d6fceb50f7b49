/** Quotes one word for a POSIX shell command we print for the user to copy (plain words stay bare). */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

/**
 * A command line to print for the user to paste: every word quoted, and the operands after `--`
 * when one of them starts with a dash, so a name such as `-rf` is never read as an option.
 */
export function shellCommand(words: readonly string[], operands: readonly string[] = []): string {
  const end = operands.some((o) => o.startsWith('-')) ? ['--'] : [];
  return [...words, ...end, ...operands].map(shellQuote).join(' ');
}
