/** Quotes one word for a POSIX shell command we print for the user to copy (plain words stay bare). */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}
