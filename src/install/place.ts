import { copyFile, constants, link, lstat, readdir, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { sha256File } from '../appimage/verify.js';
import { KeeperError } from '../core/errors.js';
import { ownedTempPath } from '../transfer/download/index.js';
import { appFileName } from '../core/file-names.js';
import { ensureDirBelow } from '../core/no-follow.js';
import { setManagedMode } from '../core/file-modes.js';
import { fsyncDir } from '../core/atomic-files.js';
import { deleteManagedFile, isInside } from './managed-delete.js';
import { tempPrefix } from './naming.js';
import { entryExists } from '../core/path-exists.js';
import {
  otherOwnerRecord,
  otherProfileClaim,
  writeOwnerRecord,
  type OwnerClaim,
  type Profile,
} from './owner-record.js';

/** Folder inside storage_dir for the version kept for rollback; hidden so it never looks current. */
export const PREVIOUS_DIR = '.appimage-keeper-previous';

/** A second name for `from` at `to`: a hard link, or an exclusive copy where links fail (across file systems). */
export async function linkOrCopy(from: string, to: string): Promise<void> {
  await link(from, to).catch(() => copyFile(from, to, constants.COPYFILE_EXCL));
}

/** Where the kept previous version of an app lives. */
export function previousPath(storageDir: string, name: string): string {
  return join(storageDir, PREVIOUS_DIR, `${appFileName(name)}.AppImage`);
}

/** What is about to be committed; recorded (see state/intent.ts) before the rename that commits. */
export interface CommitPlan {
  target: string;
  /** The kept previous version's final path, when one is kept. */
  previous: string | undefined;
  /** Where the previous version waits until the commit (renamed to `previous` right after it). */
  staged: string | undefined;
}

/** The installed file an update replaces, as state recorded it. */
export interface ReplacedFile {
  file: string;
  sha256: string;
}

/** Where a placed install ended up. */
export interface Placed {
  file: string;
  previous: string | undefined;
}

/**
 * Puts a verified temp file in place: mode 0755, rename over the target (atomic, so a running copy
 * of the old version keeps its inode), and only then removes the old file when its name differs.
 * A file at the target that is not the one we installed has already been given a second name by
 * the caller (`foreignKept`, see keepForeignFile), so it is never lost; that step also refuses
 * another profile's current install there (`STORAGE_CLAIMED`). With `keepPrevious`, the old file is linked
 * (or copied) to a temp name in the previous-version folder and moved into the slot just after the
 * commit, so a kill at any point leaves the slot holding a version state knows about.
 * `beforeCommit` runs after everything is staged and before the committing rename.
 */
export async function placeAppImage(opts: {
  tempPath: string;
  storageDir: string;
  target: string;
  name: string;
  old: ReplacedFile | undefined;
  /** Where a file found at the target was kept (keepForeignFile), undefined when it was ours or free. */
  foreignKept: string | undefined;
  keepPrevious: boolean;
  managedDirs: readonly string[];
  /** The new file's SHA-256, recorded beside it with `profile` as its owner. */
  sha256: string;
  profile: Profile;
  beforeCommit?: (plan: CommitPlan) => Promise<void>;
}): Promise<Placed> {
  const { target, foreignKept } = opts;
  await setManagedMode(opts.tempPath, 'appimage');
  const old = opts.old;
  // When the old record's own file was replaced behind our back, what sits there is not that version.
  const oldIsOurs = old !== undefined && !(foreignKept && old.file === target);
  let previous: string | undefined;
  let staged: string | undefined;
  if (
    opts.keepPrevious &&
    old &&
    oldIsOurs &&
    opts.managedDirs.some((d) => isInside(old.file, d)) &&
    (await entryExists(old.file))
  ) {
    previous = previousPath(opts.storageDir, opts.name);
    const dir = join(opts.storageDir, PREVIOUS_DIR);
    await ensureDirBelow(opts.storageDir, dir);
    staged = await ownedTempPath(dir, tempPrefix(opts.name), 'previous');
    await linkOrCopy(old.file, staged);
    await setManagedMode(staged, 'appimage');
  }
  await opts.beforeCommit?.({ target, previous, staged });
  await rename(opts.tempPath, target);
  await fsyncDir(opts.storageDir);
  if (staged && previous) {
    await rename(staged, previous);
    await fsyncDir(join(opts.storageDir, PREVIOUS_DIR));
  }
  await writeOwnerRecord(target, opts.name, opts.sha256, opts.profile);
  if (old && oldIsOurs && old.file !== target) await deleteManagedFile(old.file, opts.managedDirs);
  return { file: target, previous };
}

/** The error for a target that is another profile's current install: it is left alone. */
function storageClaimed(target: string, claim: OwnerClaim): KeeperError {
  return new KeeperError(
    'STORAGE_CLAIMED',
    `${target} is the installed file of app ${JSON.stringify(claim.app)} of another appimage-keeper profile (config dir ${claim.configDir}); it was left alone`,
    {
      hint: 'two profiles share this storage_dir and file name: give one of them another storage_dir or naming_format, or remove the app from one of them',
      details: {
        file: target,
        owner_app: claim.app,
        owner_config_dir: claim.configDir,
        owner_state_dir: claim.stateDir,
      },
    },
  );
}

/**
 * Refuses, before anything is downloaded, a target that is another profile's current install
 * (placing would refuse it anyway). Cheap unless an owner record names another profile.
 */
export async function refuseClaimedTarget(
  target: string,
  old: ReplacedFile | undefined,
  profile: Profile,
): Promise<void> {
  if (!otherOwnerRecord(target, profile)) return;
  const st = await lstat(target).catch(() => undefined);
  if (!st?.isFile()) return;
  const sha = await sha256File(target);
  if (old?.file === target && sha === old.sha256) return;
  const claim = otherProfileClaim(target, sha, profile);
  if (claim) throw storageClaimed(target, claim);
}

/** Names of files of size `size` beside `target` named `<target>.foreign-…`, at most 100 looked at. */
async function foreignCopies(target: string, size: number): Promise<string[]> {
  const prefix = `${basename(target)}.foreign-`;
  const names = await readdir(dirname(target)).catch(() => [] as string[]);
  const out: string[] = [];
  for (const name of names.filter((n) => n.startsWith(prefix)).slice(0, 100)) {
    const path = join(dirname(target), name);
    const st = await lstat(path).catch(() => undefined);
    if (st?.isFile() && st.size === size) out.push(path);
  }
  return out;
}

/**
 * A file at `target` that is not the installed file recorded in state (another name, or its
 * SHA-256 differs) was put there by someone else: give it a second, unused name next to it before
 * the target is replaced (by an update or a rollback). Returns that name, or undefined when the
 * target is free or ours. A copy already kept with the same content is reused, so the same file
 * is never kept twice; another profile's current install is refused (`STORAGE_CLAIMED`).
 */
export async function keepForeignFile(
  target: string,
  old: ReplacedFile | undefined,
  now: Date,
  profile: Profile,
): Promise<string | undefined> {
  const st = await lstat(target).catch(() => undefined);
  if (!st) return undefined;
  if (st.isDirectory()) {
    throw new KeeperError(
      'TARGET_IS_DIRECTORY',
      `${target} is a directory; the AppImage cannot be placed there`,
      {
        hint: 'move the directory away or change naming_format',
      },
    );
  }
  const sha = st.isFile() ? await sha256File(target) : undefined;
  if (old && old.file === target && sha === old.sha256) return undefined;
  if (sha !== undefined) {
    const claim = otherProfileClaim(target, sha, profile);
    if (claim) throw storageClaimed(target, claim);
    for (const copy of await foreignCopies(target, st.size))
      if ((await sha256File(copy)) === sha) return copy;
  }
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 0; n < 100; n++) {
    const aside = `${target}.foreign-${stamp}${n === 0 ? '' : `-${n}`}`;
    try {
      await link(target, aside);
      await fsyncDir(join(target, '..'));
      return aside;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      // A file system without hard links: an exclusive copy keeps it just as well.
      await copyFile(target, aside, constants.COPYFILE_EXCL);
      return aside;
    }
  }
  throw new KeeperError(
    'TARGET_NOT_OURS',
    `${target} is not a file appimage-keeper installed, and no free name to keep it was found`,
    {
      hint: 'move it out of storage_dir; nothing was changed',
    },
  );
}
