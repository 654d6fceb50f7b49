/**
 * Downloads a new standalone executable next to the running one and renames it over it: the same
 * downloader and checks as an app (size, SHA-256, ELF machine), then one atomic rename that keeps
 * the file's mode. A failure at any step deletes the temp file and leaves the old executable.
 */
import { access, chmod, constants, realpath, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { hostArch } from '../../appimage/elf.js';
import { verifyExecutable } from '../../appimage/verify.js';
import type { AppSettings } from '../../config/types.js';
import type { Context } from '../../core/context.js';
import { KeeperError } from '../../core/errors.js';
import { expectedChecksum } from '../../app/checksum.js';
import { downloadResolution } from '../../app/download-resolution.js';
import { cleanStaleTemps } from '../../transfer/download/index.js';
import type { Resolution } from '../../sources/types.js';

const TEMP_PREFIX = '.appimage-keeper-self-';
/** Node's binary with the CLI is ~85 MiB; anything far larger is not our executable. */
const MAX_EXECUTABLE_BYTES = 512 * 1024 * 1024;

/** Replaces `executable` (a symlink is followed) with the verified asset; returns bytes fetched. */
export async function replaceExecutable(
  executable: string,
  resolution: Resolution,
  settings: AppSettings,
  ctx: Context,
  signal: AbortSignal,
): Promise<{ path: string; bytes: number }> {
  const target = await realpath(executable);
  const dir = dirname(target);
  try {
    await access(dir, constants.W_OK);
  } catch (err) {
    throw new KeeperError('SELF_UPDATE_NOT_WRITABLE', `cannot write to ${dir}, where ${target} lives`, {
      cause: err,
      hint: 'run self-update as the user who owns that folder, or download the new executable by hand',
    });
  }
  // The digest is not optional here: the file replaced is the tool that checks all the others.
  const sha256 = await expectedChecksum(ctx.http, resolution, signal, 'self-update');
  if (!sha256) {
    throw new KeeperError(
      'SELF_UPDATE_NO_DIGEST',
      `the release publishes no SHA-256 for ${resolution.assetName}; not replacing the executable`,
      { hint: 'the release needs an asset digest or a .sha256/SHA256SUMS asset' },
    );
  }
  if (resolution.size === undefined || resolution.size > MAX_EXECUTABLE_BYTES) {
    const size = resolution.size === undefined ? 'no size' : `${resolution.size} bytes`;
    throw new KeeperError(
      'SELF_UPDATE_SIZE',
      `the release gives ${size} for ${resolution.assetName}; expected at most ${MAX_EXECUTABLE_BYTES} bytes`,
      { hint: 'the release asset is not a standalone executable of this tool' },
    );
  }
  const { mode } = await stat(target);
  await cleanStaleTemps(dir, TEMP_PREFIX);
  const result = await downloadResolution(settings, resolution, ctx, {
    destDir: dir,
    tempPrefix: TEMP_PREFIX,
    signal,
    phase: 'self-update',
  });
  try {
    await verifyExecutable(
      result.path,
      {
        hostArch: hostArch(ctx.arch),
        sha256,
        size: resolution.size,
      },
      result.sha256,
    );
    await chmod(result.path, mode & 0o7777);
    await rename(result.path, target);
  } catch (err) {
    await rm(result.path, { force: true });
    throw err;
  }
  ctx.emit({
    type: 'info',
    app: settings.name,
    message: `verified and replaced ${target} (sha256 ${sha256})`,
  });
  return { path: target, bytes: result.size };
}
