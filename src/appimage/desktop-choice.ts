import { basename } from 'node:path';
import type { SquashfsDirent } from './squashfs/index.js';

/**
 * Chooses the AppImage's desktop file among the `.desktop` entries of its root directory.
 * Rule (deterministic): the first hint (app name, then the AppImage's file name) whose name matches
 * a candidate's stem exactly, ignoring case; then a hint that starts with the stem followed by `-`,
 * `_` or `.` (so `hello-1.0.AppImage` picks `hello.desktop`); otherwise the alphabetically first
 * candidate by code point.
 */
export function chooseDesktopFile(root: SquashfsDirent[], hints: string[]): string | undefined {
  const candidates = root
    .filter(
      (e) =>
        e.name.endsWith('.desktop') &&
        e.name.length > '.desktop'.length &&
        (e.type === 'file' || e.type === 'symlink'),
    )
    .map((e) => e.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (candidates.length <= 1) return candidates[0];
  const stems = candidates.map((c) => ({ name: c, stem: c.slice(0, -'.desktop'.length).toLowerCase() }));
  const keys = hints.filter(Boolean).map((h) => stripAppImageSuffix(basename(h)).toLowerCase());
  for (const key of keys) {
    const exact = stems.find((s) => s.stem === key);
    if (exact) return exact.name;
  }
  for (const key of keys) {
    const prefixed = stems
      .filter((s) => /^[-_.]/.test(key.slice(s.stem.length)) && key.startsWith(s.stem))
      .sort((a, b) => b.stem.length - a.stem.length)[0];
    if (prefixed) return prefixed.name;
  }
  return candidates[0];
}

function stripAppImageSuffix(name: string): string {
  return name.replace(/\.appimage$/i, '');
}
