import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { parseChecksumFile } from '../appimage/verify.js';
import { KeeperError } from '../core/errors.js';
import type { HttpPhase } from '../http/errors.js';
import { request } from '../http/http.js';
import type { HttpSettings } from '../http/settings.js';
import type { Resolution } from '../sources/types.js';
import { sha512FromLatestYml } from './electron-yml.js';

/** The digests a download must have, as lower-case hex. */
export interface ExpectedDigests {
  sha256?: string | undefined;
  sha512?: string | undefined;
}

/**
 * The digests the file must have: the forge's SHA-256 when given, else the one in the release's
 * checksum sidecar (`<asset>.sha256`, `<asset>-SHA256.txt`, `<asset>.DIGEST`, `SHA256SUMS`, ...),
 * else the SHA-512 of electron-builder's `latest-linux.yml`. A SHA-256 sidecar that does not name
 * the asset is an error rather than a silent skip: the release claims integrity we cannot check.
 * The electron-builder file lists one architecture's files, so not naming the asset is no error.
 */
export async function expectedDigests(
  http: HttpSettings,
  resolution: Resolution,
  signal: AbortSignal,
  phase: HttpPhase = 'download',
): Promise<ExpectedDigests> {
  if (resolution.sha256) return { sha256: resolution.sha256.toLowerCase() };
  if (!resolution.checksumUrl) return {};
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
  if (resolution.checksumFormat === 'electron-builder') {
    const sha512 = sha512FromLatestYml(res.text, resolution.assetName);
    return sha512 ? { sha512 } : {};
  }
  const digest = parseChecksumFile(res.text, resolution.assetName);
  if (!digest) {
    throw new KeeperError(
      'CHECKSUM_MISSING',
      `checksum file ${resolution.checksumUrl} has no entry for ${resolution.assetName}`,
    );
  }
  return { sha256: digest.toLowerCase() };
}

/** The SHA-256 the file must have (see expectedDigests); a SHA-512-only release gives none. */
export async function expectedChecksum(
  http: HttpSettings,
  resolution: Resolution,
  signal: AbortSignal,
  phase: HttpPhase = 'download',
): Promise<string | undefined> {
  return (await expectedDigests(http, resolution, signal, phase)).sha256;
}

/** Checks a downloaded file against a published SHA-512; VERIFY_DIGEST when it differs. */
export async function verifySha512(path: string, expected: string, signal: AbortSignal): Promise<void> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(path, { signal })) hash.update(chunk as Buffer);
  const actual = hash.digest('hex');
  if (actual !== expected.toLowerCase()) {
    throw new KeeperError('VERIFY_DIGEST', `SHA-512 mismatch: expected ${expected}, got ${actual}`, {
      hint: 'the file is corrupt or not the one the release published; it was not installed',
      details: { expected, actual, algorithm: 'sha512' },
    });
  }
}
