import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { hostArch } from '../appimage/elf.js';
import { sha256File, verifyAppImage, verifySizeAndDigest } from '../appimage/verify.js';
import { ZeroedDigestTap } from '../appimage/zeroed-digest.js';
import { extractAppImageFromZip, isZip } from '../appimage/zip.js';
import type { AppSettings } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import { ensureFreeSpace } from '../core/free-space.js';
import { cleanStaleTemps } from '../transfer/download/index.js';
import { legacyTempPattern, tempPrefix } from '../install/naming.js';
import { placeAppImage, PREVIOUS_DIR, refuseClaimedTarget } from '../install/place.js';
import { writeIntent } from '../state/intent.js';
import type { DesktopPlacement } from '../install/desktop-integration.js';
import type { AppState, InstalledRecord } from '../state/types.js';
import { sourceFor, type AppSource } from '../sources/index.js';
import type { ProvenanceOutcome } from '../trust/provenance/stage.js';
import { expectedDigests, verifySha512 } from './checksum.js';
import { fetchAsset, removeTemps } from './fetch-asset.js';
import { readEmbeddedVersion } from './integrate-step.js';
import { managedStorageDirs } from './managed-dirs.js';
import { placeAndIntegrate, prepareStorage, targetPath } from './place-and-integrate.js';
import type { ReleaseRun } from './app-run.js';
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
async function provenanceStage(app: ReleaseRun, source: AppSource): Promise<ProvenanceOutcome> {
  const { settings, run } = app;
  if (settings.provenance === 'off') return { warnings: [], requests: 0 };
  const { checkProvenance } = await import('../trust/provenance/stage.js');
  const deps = { ctx: app.ctx, store: run.store, memo: run.memo, signal: app.signal };
  return checkProvenance(settings, app.release, app.state?.installed?.provenance, {
    ctx: app.ctx,
    signal: app.signal,
    attestations: source.attestations?.(deps),
  });
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
export async function installApp(app: ReleaseRun): Promise<InstallResult> {
  const { settings, release: resolution, state: current, ctx } = app;
  const dir = settings.storage_dir;
  const source = sourceFor(settings);
  // Attestations are checked against the published digest before a byte is downloaded.
  const provenance = await provenanceStage(app, source);
  await prepareStorage(dir);
  await cleanStaleTemps(dir, tempPrefix(settings.name), legacyTempPattern(settings.name));
  await cleanStaleTemps(join(dir, PREVIOUS_DIR), tempPrefix(settings.name), undefined, dir);
  await checkAssetSize(settings, resolution.size);
  // Another profile's current install at the target is refused before a byte is downloaded (a
  // direct download's embedded version may still rename the target: placing checks again).
  await refuseClaimedTarget(targetPath(settings, resolution.version), current?.installed, ctx.paths);
  // The signed digest of an AppImage is computed in the same pass as its SHA-256.
  const newTap = (): ZeroedDigestTap | undefined =>
    settings.signature === 'off' ? undefined : new ZeroedDigestTap(resolution.size);
  let tap = newTap();
  const fetched = await fetchAsset(app, current?.installed?.file, tap);
  let appImagePath = fetched.path;
  const warnings = [...provenance.warnings, ...fetched.warnings];
  try {
    const { sha256, sha512 } = await expectedDigests(ctx.http, resolution, app.signal);
    if (sha512) await verifySha512(fetched.path, sha512, app.signal);
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
      await verifyAppImage(appImagePath, { hostArch: hostArch(ctx.arch) });
      tap = newTap();
      fileSha = await sha256File(appImagePath, tap);
    } else {
      await verifyAppImage(
        appImagePath,
        {
          hostArch: hostArch(ctx.arch),
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
    const signature = await signatureStep(app, appImagePath, version, signedDigest);
    warnings.push(...signature.warnings);
    const now = ctx.now().toISOString();
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
    let previousFile: string | undefined;
    const linked = await placeAndIntegrate(app, {
      version,
      keepForeign: true,
      announce: true,
      move: async (target, foreignKept) => {
        const placed = await placeAppImage({
          tempPath: appImagePath,
          storageDir: dir,
          target,
          name: settings.name,
          old: oldRecord,
          foreignKept,
          keepPrevious: settings.keep_previous,
          managedDirs: managedStorageDirs(app.run.ws),
          sha256: fileSha,
          profile: ctx.paths,
          beforeCommit: (plan) =>
            writeIntent(ctx.paths.stateDir, {
              app: settings.name,
              installed: record(plan.target),
              previous: plan.previous && oldRecord ? { ...oldRecord, file: plan.previous } : undefined,
              staged: plan.staged,
              oldFile: oldRecord?.file,
              signature: signature.state,
              releaseAssets,
            }),
        });
        previousFile = placed.previous;
        ctx.emit({
          type: 'info',
          app: settings.name,
          message: `verified and installed ${placed.file} (sha256 ${fileSha})`,
        });
        return placed.file;
      },
    });
    warnings.push(...linked.warnings);
    return {
      installed: record(linked.file),
      previous: previousFile && oldRecord ? { ...oldRecord, file: previousFile } : undefined,
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
