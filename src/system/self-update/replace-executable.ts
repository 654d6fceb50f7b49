/**
 * Downloads a new standalone executable next to the running one and renames it over it. In order:
 * a published digest and a plausible size, the caller's authenticity check of that digest (an
 * attestation, before any byte is downloaded), the same downloader and checks as an app (size,
 * SHA-256, ELF machine; a compressed asset's size and digest are of its compressed bytes, the ELF
 * checks of what it decodes to), a smoke test (`--version` must answer the release's version), then the
 * old file is kept as `<exe>.previous` and one atomic rename puts the new one in place, with the
 * old file's mode (0755 in the system layout). A failure at any step deletes the temp file and leaves the old executable.
 */
import { chmod, realpath, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { hostArch } from '../../appimage/elf.js';
import { verifyExecutable, verifySizeAndDigest } from '../../appimage/verify.js';
import type { AppSettings } from '../../config/types.js';
import type { Context } from '../../context/context.js';
import { KeeperError } from '../../core/errors.js';
import { expectedChecksum } from '../../app/checksum.js';
import { downloadResolution } from '../../app/download-resolution.js';
import { cleanStaleTemps, ownedTempPath } from '../../transfer/download/index.js';
import { fsyncDir } from '../../core/atomic-files.js';
import type { Resolution } from '../../sources/types.js';
import { keepPrevious } from './previous.js';
import { requireWritableDir, SELF_TEMP_PREFIX } from './self-files.js';
import { smokeTest } from './smoke-test.js';
import { isCompressedAsset } from './asset-name.js';
import { unpackZstd } from './unpack-asset.js';
/** Node's binary with the CLI is ~105 MiB; anything far larger is not our executable. */
const MAX_EXECUTABLE_BYTES = 512 * 1024 * 1024;

/** What the new executable must be besides its bytes. */
export interface Replacement<A> {
  /** The release's version, which the new file's `--version` must print. */
  version: string;
  /** Checks that the published digest is ours (throws to refuse); runs before the download. */
  authenticate(sha256: string): Promise<A>;
}

/** What a replacement did. */
export interface Replaced<A> {
  path: string;
  bytes: number;
  /** Where the replaced executable was kept. */
  previous: string;
  authenticity: A;
}

/** Replaces `executable` (a symlink is followed) with the verified asset. */
export async function replaceExecutable<A>(
  executable: string,
  resolution: Resolution,
  settings: AppSettings,
  ctx: Context,
  signal: AbortSignal,
  want: Replacement<A>,
): Promise<Replaced<A>> {
  const target = await realpath(executable);
  const dir = dirname(target);
  await requireWritableDir(dir, target);
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
  const authenticity = await want.authenticate(sha256);
  const { mode } = await stat(target);
  await cleanStaleTemps(dir, SELF_TEMP_PREFIX);
  const result = await downloadResolution(settings, resolution, ctx, {
    destDir: dir,
    tempPrefix: SELF_TEMP_PREFIX,
    signal,
    phase: 'self-update',
  });
  let previous: string;
  let file = result.path;
  try {
    const exp = { hostArch: hostArch(ctx.arch), sha256, size: resolution.size };
    if (isCompressedAsset(resolution.assetName)) {
      // The published digest (and the attestation) are of the compressed bytes.
      await verifySizeAndDigest(result.path, exp, result.sha256);
      file = await ownedTempPath(dir, SELF_TEMP_PREFIX, 'exe');
      await unpackZstd(result.path, file, MAX_EXECUTABLE_BYTES, resolution.assetName);
      await rm(result.path, { force: true });
      await verifyExecutable(file, { hostArch: exp.hostArch });
    } else {
      await verifyExecutable(file, exp, result.sha256);
    }
    // The system layout's executable is run by every user: 0755 even if it was installed 0700.
    await chmod(file, ctx.paths.layout === 'system' ? 0o755 : mode & 0o7777);
    await smokeTest(file, want.version, ctx.env);
    previous = await keepPrevious(target);
    await rename(file, target);
  } catch (err) {
    await rm(result.path, { force: true });
    await rm(file, { force: true });
    throw err;
  }
  await fsyncDir(dir);
  ctx.emit({
    type: 'info',
    app: settings.name,
    message: `verified and replaced ${target} (sha256 ${sha256}); the old one is ${previous}`,
  });
  return { path: target, bytes: result.size, previous, authenticity };
}
