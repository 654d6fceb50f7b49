/**
 * The permission bits of what we place where users run or read it: one table for every writer
 * (update, adopt, rollback, integration), set with chmod after creating so no umask narrows them.
 * A `--system` run's apps and menu entries are used by every account; root's umask 077 must not
 * leave them 0700 (a menu entry that does not start).
 */
import { chmod, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The kinds of managed entry that have a fixed mode. */
export type ManagedKind = 'folder' | 'appimage' | 'desktop-entry' | 'icon' | 'owner-record';

const MODES: Readonly<Record<ManagedKind, number>> = {
  folder: 0o755,
  appimage: 0o755,
  'desktop-entry': 0o644,
  icon: 0o644,
  'owner-record': 0o644,
};

/** The permission bits of a managed entry of `kind`. */
export function managedMode(kind: ManagedKind): number {
  return MODES[kind];
}

/** Gives `path` exactly the mode of `kind`, whatever it was created (or copied, or linked) with. */
export async function setManagedMode(path: string, kind: ManagedKind): Promise<void> {
  await chmod(path, MODES[kind]);
}

/**
 * Creates `dir` and its missing parents as managed folders (0755 exactly); folders that already
 * existed keep their mode (doctor --system reports a loose one).
 */
export async function makeManagedDir(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined) return;
  // mkdir returns the outermost folder it created: every level from there down to dir is new.
  const created: string[] = [];
  for (let cur = dir; ; cur = dirname(cur)) {
    created.push(cur);
    if (cur === first || dirname(cur) === cur) break;
  }
  for (const path of created.reverse()) await setManagedMode(path, 'folder');
}
