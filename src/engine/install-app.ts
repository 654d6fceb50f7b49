import { access, constants, mkdir, rm, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { hostArch } from '../appimage/elf.js';
import { sha256File, verifyAppImage } from '../appimage/verify.js';
import { extractAppImageFromZip, isZip } from '../appimage/zip.js';
import type { AppSettings } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import { cleanStaleTemps } from '../net/download/index.js';
import { renderFileName, tempPrefix } from '../install/naming.js';
import { placeAppImage } from '../install/place.js';
import { placeSymlink } from '../install/symlink.js';
import type { AppState, InstalledRecord } from '../state/types.js';
import type { Resolution } from '../strategy/types.js';
import { expectedChecksum } from './checksum.js';
import { fetchAsset, removeTemps } from './fetch-asset.js';
import { integrateStep, readEmbeddedVersion } from './integrate-step.js';
import type { Run } from './run.js';

/** What an install produced, for the outcome and for state. */
export interface InstallResult {
  installed: InstalledRecord;
  previous: InstalledRecord | undefined;
  symlink: string | undefined;
  integration: AppState['integration'];
  warnings: string[];
  method: string;
  bytesDownloaded: number;
  bytesReused: number;
}

/** Makes sure storage_dir exists and is writable before spending bandwidth. */
async function prepareStorage(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (err) {
    throw new KeeperError('STORAGE_NOT_WRITABLE', `storage_dir ${dir} is not writable`, {
      cause: err,
      hint: 'fix its permissions or set storage_dir to a folder you own',
    });
  }
}

/**
 * Downloads, verifies and installs one app's new version. Nothing installed changes until the
 * verified file is renamed into place; any failure before that deletes the temp files and leaves
 * the previous version and its state as they were.
 */
export async function installApp(
  settings: AppSettings,
  resolution: Resolution,
  current: AppState | undefined,
  run: Run,
): Promise<InstallResult> {
  const dir = settings.storage_dir;
  await prepareStorage(dir);
  await cleanStaleTemps(dir, tempPrefix(settings.name));
  const oldFile = current?.installed?.file;
  const fetched = await fetchAsset(settings, resolution, oldFile, run);
  let appImagePath = fetched.path;
  const warnings = [...fetched.warnings];
  try {
    const sha256 = await expectedChecksum(resolution, run);
    const zipped = resolution.assetName.toLowerCase().endsWith('.zip') || (await isZip(fetched.path));
    if (zipped) {
      // The published digest and size describe the archive, so check them before extracting.
      await verifyDigestOnly(fetched.path, resolution.size, sha256, fetched.sha256);
      const strategyInner =
        settings.strategy.strategy === 'forge' ? settings.strategy.inner_asset_match : undefined;
      const inner = await extractAppImageFromZip(fetched.path, dir, tempPrefix(settings.name), strategyInner);
      await rm(fetched.path, { force: true });
      appImagePath = inner.path;
      await verifyAppImage(appImagePath, { hostArch: hostArch(run.ctx.arch) });
    } else {
      await verifyAppImage(
        appImagePath,
        {
          hostArch: hostArch(run.ctx.arch),
          ...(resolution.size !== undefined ? { size: resolution.size } : {}),
          ...(sha256 ? { sha256 } : {}),
        },
        fetched.sha256,
      );
    }
    const version =
      settings.strategy.strategy === 'direct'
        ? ((await readEmbeddedVersion(appImagePath)) ?? resolution.version)
        : resolution.version;
    const fileName = renderFileName(settings.naming_format, settings.name, version);
    const fileSha = fetched.sha256 && !zipped ? fetched.sha256 : await sha256File(appImagePath);
    const placed = await placeAppImage({
      tempPath: appImagePath,
      storageDir: dir,
      fileName,
      name: settings.name,
      oldFile,
      keepPrevious: settings.keep_previous,
    });
    run.ctx.emit({
      type: 'info',
      app: settings.name,
      message: `verified and installed ${placed.file} (sha256 ${fileSha})`,
    });
    const now = run.ctx.now().toISOString();
    const installed: InstalledRecord = {
      version,
      identity: resolution.identity,
      file: placed.file,
      url: resolution.url,
      size: fetched.size,
      sha256: fileSha,
      installedAt: now,
    };
    const previous =
      placed.previous && current?.installed ? { ...current.installed, file: placed.previous } : undefined;
    let symlink = current?.symlink;
    if (settings.create_symlinks) {
      try {
        symlink = await placeSymlink({
          dir: settings.symlink_dir,
          name: settings.name,
          target: placed.file,
          storageDir: dir,
          ours: current?.symlink,
        });
      } catch (err) {
        warnings.push(err instanceof Error ? err.message : String(err));
      }
    }
    const integ = await integrateStep(
      settings,
      placed.file,
      symlink,
      current?.integration,
      run.ctx.paths.dataHome,
    );
    warnings.push(...integ.warnings);
    return {
      installed,
      previous,
      symlink,
      integration: integ.record,
      warnings,
      method: fetched.method,
      bytesDownloaded: fetched.bytesDownloaded,
      bytesReused: fetched.bytesReused,
    };
  } catch (err) {
    await removeTemps(fetched.path, appImagePath === fetched.path ? undefined : appImagePath);
    throw err;
  }
}

async function verifyDigestOnly(
  path: string,
  size: number | undefined,
  sha256: string | undefined,
  computed: string | undefined,
): Promise<void> {
  const actualSize = (await stat(path)).size;
  if (size !== undefined && actualSize !== size) {
    throw new KeeperError('VERIFY_SIZE', `size mismatch: expected ${size} bytes, got ${actualSize}`);
  }
  const actual = computed ?? (await sha256File(path));
  if (sha256 && actual !== sha256.toLowerCase()) {
    throw new KeeperError(
      'VERIFY_DIGEST',
      `SHA-256 mismatch for ${basename(path)}: expected ${sha256}, got ${actual}`,
      {
        hint: 'the file is corrupt or not the one the release published; it was not installed',
      },
    );
  }
}
