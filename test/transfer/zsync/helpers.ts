import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KeeperError } from '../../../src/core/errors.js';

const run = promisify(execFile);

/** A scratch directory removed by `cleanup`. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'ak-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs Debian's zsyncmake on `file` and returns the control file's bytes. */
export async function zsyncmake(file: string, url: string, extra: string[] = []): Promise<Buffer> {
  const out = `${file}.zsync`;
  await run('zsyncmake', ['-o', out, '-u', url, ...extra, file], { cwd: tmpdir() });
  return readFile(out);
}

/** Deterministic pseudo-random bytes (so a failing test reproduces). */
export function pseudoRandom(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Flips one byte in each of `count` evenly spread places. */
export function scatterChanges(
  buf: Buffer,
  count: number,
  stride = Math.floor(buf.length / (count + 1)),
): Buffer {
  const copy = Buffer.from(buf);
  for (let i = 1; i <= count; i++) copy[i * stride] = copy[i * stride]! ^ 0x5a;
  return copy;
}

export function sha1(buf: Buffer): string {
  return createHash('sha1').update(buf).digest('hex');
}

export async function writeFiles(dir: string, files: Record<string, Buffer>): Promise<void> {
  for (const [name, data] of Object.entries(files)) await writeFile(join(dir, name), data);
}

/** Files in `dir` whose names start with `prefix` (leftover temp files). */
export async function leftovers(dir: string, prefix: string): Promise<string[]> {
  return (await readdir(dir)).filter((n) => n.startsWith(prefix));
}

export { randomBytes };

/**
 * Awaits `p`, which must reject with a KeeperError of `code` and leave no temp file starting with
 * `prefix` in `dir`; returns the error.
 */
export async function expectCleanFailure(
  p: Promise<unknown>,
  code: string,
  dir: string,
  prefix: string,
): Promise<KeeperError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof KeeperError, String(err));
    assert.equal(err.code, code, err.message);
    assert.deepEqual(await leftovers(dir, prefix), [], 'temp file removed');
    return err;
  }
  assert.fail(`expected ${code}`);
}
