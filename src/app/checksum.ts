import { parseChecksumFile } from '../appimage/verify.js';
import { KeeperError } from '../core/errors.js';
import type { HttpPhase } from '../http/errors.js';
import { request } from '../http/http.js';
import type { HttpSettings } from '../http/settings.js';
import type { Resolution } from '../sources/types.js';

/**
 * The SHA-256 the file must have: the forge's digest when given, else the one listed in a
 * `.sha256`/`SHA256SUMS` asset of the same release. A checksum file that does not name the asset
 * is an error rather than a silent skip: the release claims integrity we cannot check.
 */
export async function expectedChecksum(
  http: HttpSettings,
  resolution: Resolution,
  signal: AbortSignal,
  phase: HttpPhase = 'download',
): Promise<string | undefined> {
  if (resolution.sha256) return resolution.sha256.toLowerCase();
  if (!resolution.checksumUrl) return undefined;
  const res = await request(http, resolution.checksumUrl, {
    signal,
    phase,
    maxBodyBytes: 1 << 20,
  });
  if (res.status !== 200) {
    throw new KeeperError(
      'CHECKSUM_HTTP',
      `checksum file ${resolution.checksumUrl} answered HTTP ${res.status}`,
    );
  }
  const digest = parseChecksumFile(res.text, resolution.assetName);
  if (!digest) {
    throw new KeeperError(
      'CHECKSUM_MISSING',
      `checksum file ${resolution.checksumUrl} has no entry for ${resolution.assetName}`,
    );
  }
  return digest.toLowerCase();
}
