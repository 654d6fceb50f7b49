import { rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sha256File } from '../appimage/verify.js';
import { assertNoSymlinkBelow } from '../core/no-follow.js';
import { deleteManagedFile, isInside } from '../install/managed-delete.js';
import { fsyncDir } from '../core/atomic-files.js';
import { clearIntent, readIntent } from '../state/intent.js';
import type { StateStore } from '../state/store.js';
import { entryExists } from '../core/path-exists.js';

/** What recovery found for an app. */
export type Recovery = 'none' | 'committed' | 'discarded';

/**
 * Finishes or discards an install a kill interrupted (see state/intent.ts). When the new file is at
 * its target with the recorded SHA-256, the rename happened: the kept version is moved into its
 * slot, state records both, and the replaced file goes. Otherwise nothing was replaced and only the
 * staged copy is removed. Saves state before the intent is removed, so a kill here is recovered too.
 * Must run under the lock, before the app is processed.
 */
export async function recoverInstall(
  store: StateStore,
  stateDir: string,
  name: string,
  strategy: string,
  managedDirs: readonly string[],
): Promise<Recovery> {
  const intent = readIntent(stateDir, name);
  if (!intent) return 'none';
  const inManaged = (p: string): boolean => managedDirs.some((d) => isInside(p, d));
  const target = intent.installed.file;
  const committed =
    inManaged(target) &&
    (await entryExists(target)) &&
    (await sha256File(target)) === intent.installed.sha256;
  if (!committed) {
    if (intent.staged) await deleteManagedFile(intent.staged, managedDirs);
    await clearIntent(stateDir, name);
    return 'discarded';
  }
  const prev = intent.previous;
  if (
    prev &&
    intent.staged &&
    inManaged(prev.file) &&
    inManaged(intent.staged) &&
    (await entryExists(intent.staged))
  ) {
    const home = managedDirs.find((d) => isInside(prev.file, d));
    if (home !== undefined) await assertNoSymlinkBelow(home, dirname(prev.file));
    await rename(intent.staged, prev.file);
    await fsyncDir(dirname(prev.file));
  }
  const keptPrevious =
    prev &&
    inManaged(prev.file) &&
    (await entryExists(prev.file)) &&
    (await sha256File(prev.file)) === prev.sha256
      ? prev
      : undefined;
  store.updateApp(name, strategy, (s) => ({
    ...s,
    installed: intent.installed,
    previous: keptPrevious ? { ...keptPrevious, integration: s.integration } : s.previous,
    // What the interrupted install would have recorded: a first pin, the asset it installed.
    signature: intent.signature ?? s.signature,
    releaseAssets: intent.releaseAssets ?? s.releaseAssets,
    hold: false,
    lastUpdate: intent.installed.installedAt,
    lastError: undefined,
  }));
  await store.save();
  if (intent.oldFile && intent.oldFile !== target) await deleteManagedFile(intent.oldFile, managedDirs);
  await clearIntent(stateDir, name);
  return 'committed';
}
