import { access, constants, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { hostArch } from '../appimage/elf.js';
import { sha256File, verifyAppImage, verifySizeAndDigest } from '../appimage/verify.js';
import { ZeroedDigestTap } from '../appimage/zeroed-digest.js';
import { extractAppImageFromZip, isZip } from '../appimage/zip.js';
import type { AppSettings } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import { ensureFreeSpace } from '../core/free-space.js';
import { cleanStaleTemps } from '../transfer/download/index.js';
import { legacyTempPattern, renderFileName, tempPrefix } from '../install/naming.js';
import { placeAppImage, PREVIOUS_DIR, refuseClaimedTarget } from '../install/place.js';
import { placeSymlink } from '../install/symlink.js';
import { writeIntent } from '../state/intent.js';
import type { DesktopPlacement } from '../install/desktop-integration.js';
import type { AppState, InstalledRecord } from '../state/types.js';
import { sourceFor, type AppSource, type Resolution } from '../sources/index.js';
import type { ProvenanceOutcome } from '../trust/provenance/stage.js';
import { expectedDigests, verifySha512 } from './checksum.js';
import { fetchAsset, removeTemps } from './fetch-asset.js';
import { integrateStep, readEmbeddedVersion } from './integrate-step.js';
import { managedStorageDirs } from './managed-dirs.js';
import type { Run } from './run.js';
import { rememberReleaseAsset } from './release-guards.js';
import { signatureStep } from './signature-step.js';

/** What an install produced, for the outcome and for state. */
export interface InstallResult {
  installed: InstalledRecord;
  previous: InstalledRecord | undefined;
  symlink: string | undefined;
  integration: AppState['integration'];
  /** The app's signature pin after this install. */
  signature: AppState['signature'];
  /** The release assets installed so far, this one included (sources whose assets belong to releases; undefined for others). */
  releaseAssets: AppState['releaseAssets'];
  /** Where the desktop entry went (undefined when integration is off or failed). */
  desktop: DesktopPlacement | undefined;
  warnings: string[];
  method: string;
  /** Parallel connections of a full download. */
  connections: number | undefined;
  bytesDownloaded: number;
  bytesReused: number;
}

/**
 * The provenance stage, loaded only when an app turns it on: the Sigstore verifier costs 100+ ms
 * to initialise, which a run with `provenance: off` should not pay.
 */
async function provenanceStage(
  settings: AppSettings,
  source: AppSource,
  resolution: Resolution,
  current: AppState | undefined,
  run: Run,
): Promise<ProvenanceOutcome> {
  if (settings.provenance === 'off') return { warnings: [], requests: 0 };
  const { checkProvenance } = await import('../trust/provenance/stage.js');
  const deps = { ctx: run.ctx, store: run.store, memo: run.memo, signal: run.signal };
  return checkProvenance(settings, resolution, current?.installed?.provenance, {
    ctx: run.ctx,
    signal: run.signal,
    attestations: source.attestations?.(deps),
  });
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

/** Refuses an announced asset over max_asset_size, or one the storage_dir's file system has no room for. */
async function checkAssetSize(settings: AppSettings, size: number | undefined): Promise<void> {
  if (size === undefined) return;
  if (size > settings.max_asset_size) {
    throw new KeeperError(
      'ASSET_TOO_LARGE',
      `the release announces ${size} bytes, over max_asset_size (${settings.max_asset_size}); not downloaded`,
      {
        hint: 'if this AppImage really is that big, raise max_asset_size',
        details: { size, max: settings.max_asset_size },
      },
    );
  }
  await ensureFreeSpace(settings.storage_dir, size, 'the download');
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
  const source = sourceFor(settings);
  // Attestations are checked against the published digest before a byte is downloaded.
  const provenance = await provenanceStage(settings, source, resolution, current, run);
  await prepareStorage(dir);
  await cleanStaleTemps(dir, tempPrefix(settings.name), legacyTempPattern(settings.name));
  await cleanStaleTemps(join(dir, PREVIOUS_DIR), tempPrefix(settings.name), undefined, dir);
  await checkAssetSize(settings, resolution.size);
  // Another profile's current install at the target is refused before a byte is downloaded (a
  // direct download's embedded version may still rename the target: placing checks again).
  const expectedTarget = join(dir, renderFileName(settings.naming_format, settings.name, resolution.version));
  await refuseClaimedTarget(expectedTarget, current?.installed, run.ctx.paths);
  const oldFile = current?.installed?.file;
  // The signed digest of an AppImage is computed in the same pass as its SHA-256.
  const newTap = (): ZeroedDigestTap | undefined =>
    settings.signature === 'off' ? undefined : new ZeroedDigestTap(resolution.size);
  let tap = newTap();
  const fetched = await fetchAsset(settings, resolution, oldFile, run, tap);
  let appImagePath = fetched.path;
  const warnings = [...provenance.warnings, ...fetched.warnings];
  try {
    const { sha256, sha512 } = await expectedDigests(run.ctx.http, resolution, run.signal);
    if (sha512) await verifySha512(fetched.path, sha512, run.signal);
    // The downloader hashes on the way; a zsync result is hashed here, once, for checks and state.
    const assetSha = fetched.sha256 ?? (await sha256File(fetched.path, tap));
    const zipped = resolution.assetName.toLowerCase().endsWith('.zip') || (await isZip(fetched.path));
    let fileSha = assetSha;
    if (zipped) {
      // The published digest and size describe the archive, so check them before extracting.
      await verifySizeAndDigest(fetched.path, { size: resolution.size, sha256 }, assetSha);
      const inner = await extractAppImageFromZip(
        fetched.path,
        dir,
        tempPrefix(settings.name),
        source.innerAssetMatch,
        settings.max_asset_size,
      );
      await rm(fetched.path, { force: true });
      appImagePath = inner.path;
      await verifyAppImage(appImagePath, { hostArch: hostArch(run.ctx.arch) });
      tap = newTap();
      fileSha = await sha256File(appImagePath, tap);
    } else {
      await verifyAppImage(
        appImagePath,
        {
          hostArch: hostArch(run.ctx.arch),
          ...(resolution.size !== undefined ? { size: resolution.size } : {}),
          ...(sha256 ? { sha256 } : {}),
        },
        assetSha,
      );
    }
    const version = source.caps.versionFromFile
      ? ((await readEmbeddedVersion(appImagePath)) ?? resolution.version)
      : resolution.version;
    const signedDigest = tap?.result();
    const signature = await signatureStep(settings, appImagePath, version, current, run.ctx, signedDigest);
    warnings.push(...signature.warnings);
    const fileName = renderFileName(settings.naming_format, settings.name, version);
    const now = run.ctx.now().toISOString();
    const record = (file: string): InstalledRecord => ({
      version,
      identity: resolution.identity,
      file,
      url: resolution.url,
      size: fetched.size,
      sha256: fileSha,
      installedAt: now,
      ...(provenance.record ? { provenance: provenance.record } : {}),
      ...(resolution.publishedAt ? { publishedAt: resolution.publishedAt } : {}),
    });
    const oldRecord = current?.installed;
    const releaseAssets = source.caps.releaseAssets
      ? rememberReleaseAsset(current?.releaseAssets, resolution, fetched.size, now)
      : undefined;
    const placed = await placeAppImage({
      tempPath: appImagePath,
      storageDir: dir,
      fileName,
      name: settings.name,
      old: oldRecord,
      keepPrevious: settings.keep_previous,
      managedDirs: managedStorageDirs(run.ws),
      now: run.ctx.now(),
      sha256: fileSha,
      profile: run.ctx.paths,
      beforeCommit: (plan) =>
        writeIntent(run.ctx.paths.stateDir, {
          app: settings.name,
          installed: record(plan.target),
          previous: plan.previous && oldRecord ? { ...oldRecord, file: plan.previous } : undefined,
          staged: plan.staged,
          oldFile: oldRecord?.file,
          signature: signature.state,
          releaseAssets,
        }),
    });
    if (placed.foreignKept) {
      const message = `${placed.file} was not installed by appimage-keeper; kept it as ${placed.foreignKept}`;
      warnings.push(message);
      run.ctx.emit({ type: 'warning', app: settings.name, code: 'FOREIGN_FILE_KEPT', message });
    }
    run.ctx.emit({
      type: 'info',
      app: settings.name,
      message: `verified and installed ${placed.file} (sha256 ${fileSha})`,
    });
    const installed = record(placed.file);
    const previous =
      placed.previous && current?.installed ? { ...current.installed, file: placed.previous } : undefined;
    const linked = await linkAndIntegrate(settings, placed.file, current, run);
    warnings.push(...linked.warnings);
    return {
      installed,
      previous,
      symlink: linked.symlink,
      integration: linked.integration,
      signature: signature.state,
      releaseAssets,
      desktop: linked.placement,
      warnings,
      method: fetched.method,
      connections: fetched.connections,
      bytesDownloaded: fetched.bytesDownloaded,
      bytesReused: fetched.bytesReused,
    };
  } catch (err) {
    await removeTemps(fetched.path, appImagePath === fetched.path ? undefined : appImagePath);
    throw err;
  }
}

/**
 * Points the symlink and the desktop entry at a newly placed file. Failures become warnings: the
 * AppImage is installed either way, and the next run retries.
 */
export async function linkAndIntegrate(
  settings: AppSettings,
  file: string,
  current: AppState | undefined,
  run: Run,
): Promise<{
  symlink: string | undefined;
  integration: AppState['integration'];
  placement: DesktopPlacement | undefined;
  warnings: string[];
}> {
  const warnings: string[] = [];
  let symlink = current?.symlink;
  if (settings.create_symlinks) {
    try {
      symlink = await placeSymlink({
        dir: settings.symlink_dir,
        name: settings.name,
        target: file,
        storageDir: settings.storage_dir,
        ours: current?.symlink,
      });
    } catch (err) {
      warnings.push(err instanceof Error ? err.message : String(err));
    }
  }
  const integ = await integrateStep(settings, {
    appImagePath: file,
    symlink,
    previous: current?.integration,
    dataHome: run.ctx.paths.dataHome,
    dataDirs: run.ctx.paths.dataDirs,
    claims: run.desktopClaims,
    env: run.ctx.env,
  });
  warnings.push(...integ.warnings);
  return { symlink, integration: integ.record, placement: integ.placement, warnings };
}
