/** Whether a URL lies inside a base URL, the rule that decides where credentials may go. */

/**
 * True when `url` is on the origin of `base` and its path is the base path or below it on a
 * segment boundary: `/api/v3/repos` is under `/api/v3`, `/api/v3evil` and `/uploads` are not.
 * Both are parsed, so case, default ports and dot segments cannot disguise a URL.
 */
export function isUnderBase(url: string, base: string): boolean {
  let target: URL;
  let root: URL;
  try {
    target = new URL(url);
    root = new URL(base);
  } catch {
    return false;
  }
  if (target.origin !== root.origin) return false;
  const prefix = root.pathname.replace(/\/+$/, '');
  return prefix === '' || target.pathname === prefix || target.pathname.startsWith(`${prefix}/`);
}
