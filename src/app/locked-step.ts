/**
 * The "locked" resolution path of `update --locked`: the release comes from the lock entry, not
 * from the source, so no request is sent to learn it. An app whose installed file already has the
 * locked digest costs nothing at all.
 */
import { stat } from 'node:fs/promises';
import type { AppSettings } from '../config/types.js';
import type { LockEntry } from '../config/lock-file.js';
import { KeeperError } from '../core/errors.js';
import type { Resolution } from '../sources/index.js';
import type { AppState } from '../state/types.js';
import type { ResolveStep } from './resolve-step.js';

/** The resolution a lock entry stands for: its URL, size and SHA-256 are what the download must match. */
export function lockedResolution(entry: LockEntry): Resolution {
  return {
    version: entry.version,
    identity: entry.identity,
    url: entry.url,
    assetName: entry.asset,
    size: entry.size,
    sha256: entry.sha256,
  };
}

/**
 * The recipe's settings with the lock's pins: the signing key and the provenance signer that
 * verified on the machine that locked must verify here too (with their usual error codes).
 */
export function lockedSettings(settings: AppSettings, entry: LockEntry): AppSettings {
  const signer = entry.provenance_signer ? workflowOf(entry.provenance_signer) : undefined;
  return {
    ...settings,
    ...(entry.signing_key ? { signing_key: entry.signing_key } : {}),
    ...(signer ? { provenance_signer: signer, provenance: 'require' as const } : {}),
  };
}

/** Compares the installed file with the lock entry; LOCK_MISSING when the app has none. */
export async function lockedStep(
  name: string,
  entry: LockEntry | undefined,
  state: AppState | undefined,
): Promise<ResolveStep> {
  if (!entry) {
    return {
      kind: 'failed',
      error: new KeeperError('LOCK_MISSING', `${name} has a recipe but no entry in the lock file`, {
        hint: `run \`appimage-keeper lock ${name}\` on the machine that tests the releases and commit the lock`,
      }),
    };
  }
  const resolution = lockedResolution(entry);
  const installed = state?.installed;
  if (!installed) return { kind: 'resolved', resolution, needsUpdate: true, reason: 'not installed' };
  const onDisk = await stat(installed.file).catch(() => undefined);
  if (!onDisk?.isFile())
    return { kind: 'resolved', resolution, needsUpdate: true, reason: 'installed file is missing' };
  // An unzipped asset's file has its own digest: the identity and URL of the release name it.
  const zipped = entry.asset.toLowerCase().endsWith('.zip');
  const atLock = zipped
    ? installed.identity === entry.identity && installed.url === entry.url
    : installed.sha256 === entry.sha256;
  if (!atLock)
    return { kind: 'resolved', resolution, needsUpdate: true, reason: `locked at ${entry.version}` };
  // The digest state recorded at install is trusted, not recomputed (hashing 50 AppImages would
  // cost seconds on every timer run); a file replaced by one of another size is still noticed.
  // A same-size replacement needs `update --locked --force` (docs/fleet.md).
  if (!zipped && onDisk.size !== installed.size)
    return {
      kind: 'resolved',
      resolution,
      needsUpdate: true,
      reason: 'installed file changed since it was installed',
    };
  return { kind: 'resolved', resolution, needsUpdate: false, reason: 'at the locked digest' };
}

/** A download that is not the locked bytes: LOCK_MISMATCH, with the verifier's error as the cause. */
export function lockMismatch(name: string, entry: LockEntry, cause: KeeperError): KeeperError {
  return new KeeperError('LOCK_MISMATCH', `${name}: ${entry.url} is not the locked file (${cause.message})`, {
    cause,
    hint: 'nothing was changed; the release asset was replaced since the lock was written: test the new one and run `lock` again, or find out why',
    details: { expected_sha256: entry.sha256, expected_size: entry.size, ...cause.details },
  });
}

// `https://github.com/o/r/.github/workflows/f.yml@refs/tags/v1` → `o/r/.github/workflows/f.yml`.
function workflowOf(san: string): string | undefined {
  try {
    const path = new URL(san).pathname.replace(/^\//, '').split('@')[0] ?? '';
    return /^[^/]+\/[^/]+\/\.github\/workflows\/[^/]+$/.test(path) ? path : undefined;
  } catch {
    return undefined;
  }
}
