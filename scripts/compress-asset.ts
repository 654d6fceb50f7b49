/**
 * The compressed release asset beside the raw executable: `<file>.zst`, written by the zstd
 * program (Debian's `zstd`; the GitHub runners have it). zstd rather than xz: a few percent
 * larger, but self-update decodes it (fzstd) an order of magnitude faster than the xz decoder.
 */
import { spawnSync } from 'node:child_process';
import { rename, rm, stat } from 'node:fs/promises';
import { COMPRESSED_SUFFIX } from '../src/system/self-update/asset-name.js';

/** Writes `<file>.zst` (level 19, no long-distance window: fzstd must decode it) and returns it. */
export async function compressAsset(file: string, level = 19): Promise<{ file: string; size: number }> {
  const out = `${file}${COMPRESSED_SUFFIX}`;
  const partial = `${out}.partial`;
  try {
    const r = spawnSync('zstd', ['-q', '-f', `-${level}`, '-T0', file, '-o', partial], {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 900_000,
    });
    if (r.error || r.status !== 0) {
      const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}: ${r.stderr.toString().trim()}`;
      throw new Error(`zstd ${file} failed (${why})`);
    }
    await rename(partial, out);
  } finally {
    await rm(partial, { force: true });
  }
  return { file: out, size: (await stat(out)).size };
}
