import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { startSim, type Sim } from '../../../sim/index.js';
import type { DownloadRequest } from '../../../src/transfer/download/index.js';
import { createHttpSettings } from '../../../src/http/settings.js';

/** A running sim and a scratch directory, torn down together. */
export interface Bench {
  sim: Sim;
  dir: string;
  close(): Promise<void>;
}

/** Starts a sim and makes a temp dir. */
export async function setUp(): Promise<Bench> {
  const sim = await startSim();
  const dir = await mkdtemp(join(tmpdir(), 'ak-'));
  return {
    sim,
    dir,
    close: async () => {
      await sim.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const PREFIX = '.appimage-keeper-test-';

/** A request with test-friendly defaults (small segments, short stall timeout). */
export function request(dir: string, url: string, extra: Partial<DownloadRequest> = {}): DownloadRequest {
  return {
    url,
    http: createHttpSettings(),
    destDir: dir,
    tempPrefix: PREFIX,
    segmented: false,
    connections: 4,
    minSegmentBytes: 256 * 1024,
    stallTimeoutMs: 5_000,
    ...extra,
  };
}

/** SHA-256 of a file read from disk (independent of the downloader's own digest). */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** Deletes every temp file of PREFIX in `dir` (between tests: this process's own finished downloads). */
export async function removeTestTemps(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (name.startsWith(PREFIX)) await rm(join(dir, name), { force: true, recursive: true });
  }
}

/** Names in `dir` (to check that no temp file is left). */
export async function listDir(dir: string): Promise<string[]> {
  return (await readdir(dir)).sort();
}

/** The Range headers of GET requests the sim saw for `path`. */
export function rangesFor(sim: Sim, path: string): string[] {
  return sim.requests
    .filter((r) => r.method === 'GET' && r.path === path)
    .map((r) => String(r.headers.range ?? ''))
    .filter((r) => r !== '');
}
