import { createHash } from 'node:crypto';
import { lstat, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { readSmallFileSync } from '../core/small-file.js';
import { writeFileAtomic } from '../core/atomic-files.js';
import { managedMode } from '../core/file-modes.js';

// Two profiles (config dirs) may share a storage_dir. Each installed AppImage gets a small record
// beside it naming the profile that installed it, so that another profile meeting the file at its
// own target can tell "another profile's current install" (leave it alone) from "a file someone put
// there" (keep it aside once, then replace it). The record only claims; the owner's state decides.

/** Folder inside storage_dir holding one owner record per installed AppImage (`<file name>.owner`). */
export const OWNERS_DIR = '.appimage-keeper-owners';

/** Records and state files read from another profile are this small; anything larger is ignored. */
const MAX_RECORD_BYTES = 4096;
const MAX_OWNER_STATE_BYTES = 16 * 1024 * 1024;

/** The profile that runs this process: its config and state folders. */
export interface Profile {
  configDir: string;
  stateDir: string;
}

/** What an owner record says, and whose state confirmed it. */
export interface OwnerClaim extends Profile {
  app: string;
}

/** An owner record as written beside an installed file. */
export interface OwnerRecord extends OwnerClaim {
  sha256: string;
}

/**
 * Where the owner record of an AppImage in storage_dir lives. Not named `*.AppImage`, so nothing
 * looking for AppImages takes it for one; a name too long for the suffix is replaced by its hash.
 */
export function ownerRecordPath(file: string): string {
  const name = basename(file);
  const record =
    Buffer.byteLength(name) <= 240
      ? `${name}.owner`
      : `${createHash('sha256').update(name).digest('hex')}.owner`;
  return join(dirname(file), OWNERS_DIR, record);
}

/**
 * Records that `profile` installed `file` for `app` with this SHA-256. Best effort: without the
 * record another profile only treats the file as foreign (kept once), which loses nothing. A
 * symlink in place of the folder is never written through.
 */
export async function writeOwnerRecord(
  file: string,
  app: string,
  sha256: string,
  profile: Profile,
): Promise<void> {
  try {
    const record: OwnerRecord = { app, sha256, configDir: profile.configDir, stateDir: profile.stateDir };
    // The storage folder is the root: a symlink at the owners folder is refused, never followed.
    await writeFileAtomic(ownerRecordPath(file), `${JSON.stringify(record)}\n`, {
      root: dirname(file),
      mode: managedMode('owner-record'),
    });
  } catch {
    // Best effort, see above.
  }
}

/** Deletes the owner record of a file that is gone, and the folder once empty (never through a symlink). */
export async function removeOwnerRecord(file: string): Promise<void> {
  const path = ownerRecordPath(file);
  if (!(await lstat(dirname(path)).catch(() => undefined))?.isDirectory()) return;
  const st = await lstat(path).catch(() => undefined);
  if (!st?.isFile()) return;
  await rm(path, { force: true });
  await rmdir(dirname(path)).catch(() => undefined);
}

function parseRecord(text: string): OwnerRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const str = (k: string): string | undefined => (typeof v[k] === 'string' ? v[k] : undefined);
  const [app, sha256, configDir, stateDir] = [str('app'), str('sha256'), str('configDir'), str('stateDir')];
  if (!app || !sha256 || !configDir || !stateDir || !isAbsolute(stateDir) || !isAbsolute(configDir))
    return undefined;
  return { app, sha256, configDir, stateDir };
}

function readBounded(path: string, max: number): string | undefined {
  try {
    const r = readSmallFileSync(path, max);
    return r.kind === 'text' ? r.text : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the owner's state file still records `file`, with this SHA-256, as the app's installed file. */
function ownerStillHolds(record: OwnerRecord, file: string): boolean {
  const text = readBounded(join(record.stateDir, 'state.json'), MAX_OWNER_STATE_BYTES);
  if (text === undefined) return false;
  try {
    const state = JSON.parse(text) as {
      apps?: Record<string, { installed?: { file?: unknown; sha256?: unknown } }>;
    };
    const installed =
      state.apps && Object.hasOwn(state.apps, record.app) ? state.apps[record.app]?.installed : undefined;
    return installed?.file === file && installed.sha256 === record.sha256;
  } catch {
    return false;
  }
}

/** The owner record beside `file` when it names a profile other than `profile`. */
export function otherOwnerRecord(file: string, profile: Profile): OwnerRecord | undefined {
  const text = readBounded(ownerRecordPath(file), MAX_RECORD_BYTES);
  const record = text === undefined ? undefined : parseRecord(text);
  return record && record.stateDir !== profile.stateDir ? record : undefined;
}

/**
 * The other profile whose current install `file` is (its SHA-256 `fileSha`), or undefined when
 * it is ours, unclaimed, changed since it was recorded, or no longer in that profile's state.
 */
export function otherProfileClaim(file: string, fileSha: string, profile: Profile): OwnerClaim | undefined {
  const record = otherOwnerRecord(file, profile);
  if (!record || record.sha256 !== fileSha || !ownerStillHolds(record, file)) return undefined;
  return { app: record.app, configDir: record.configDir, stateDir: record.stateDir };
}
