/**
 * Partial downloads kept across runs: one folder per URL under `<cache>/partials/`, holding the
 * bytes (`data`) and a sidecar (`state.json`: URL, validator, size, completed byte ranges). Every
 * entry is checked before use (a real folder and regular files owned by us, a sane sidecar that
 * agrees with the data file); anything else is removed, never followed.
 */
import { createHash } from 'node:crypto';
import { constants, lstat, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDirBelow, openNewFile } from '../../core/no-follow.js';
import { bootTag, isProcessAlive } from '../../core/process-owner.js';

/** Completed byte ranges [start, end), sorted, not overlapping. */
export type ByteRanges = Array<[number, number]>;

/** What the sidecar records. */
export interface PartialRecord {
  url: string;
  validator: string;
  size: number;
  ranges: ByteRanges;
}

/** A partial slot held by this run: its open data file and what is already in it (if anything). */
export interface PartialSlot {
  dir: string;
  dataPath: string;
  handle: FileHandle;
  record: PartialRecord | undefined;
}

// Bounds: a handful of partials, a few days, a few GiB; the oldest go first.
export const PARTIAL_LIMITS = {
  maxEntries: 8,
  maxAgeMs: 7 * 24 * 3600 * 1000,
  maxTotalBytes: 16 * 1024 ** 3,
  maxSidecarBytes: 64 * 1024,
  maxRanges: 256,
  maxValidatorChars: 1024,
};

const PARTIALS = 'partials';
const DATA = 'data';
const SIDECAR = 'state.json';
const LOCK = 'lock';
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW;

/** The folder of `url`'s partial: a hash of the URL, so no part of it reaches the file system. */
export function partialDirFor(cacheDir: string, url: string): string {
  return join(cacheDir, PARTIALS, createHash('sha256').update(url).digest('hex').slice(0, 32));
}

/**
 * Takes the partial slot of `url` for this run: drops stale and excess partials, removes a damaged
 * or hostile slot, and opens the data file (existing when the sidecar is sound, else new). Returns
 * undefined when another live run holds the slot.
 */
export async function takePartialSlot(cacheDir: string, url: string): Promise<PartialSlot | undefined> {
  const dir = partialDirFor(cacheDir, url);
  await prunePartials(cacheDir, dir);
  await ensureDirBelow(cacheDir, join(cacheDir, PARTIALS), 0o700);
  if (!(await isOurDir(dir))) await rm(dir, { recursive: true, force: true });
  await ensureDirBelow(cacheDir, dir, 0o700);
  if (!(await takeLock(dir))) return undefined;
  const dataPath = join(dir, DATA);
  const record = await readSound(dir, url);
  if (record) {
    return { dir, dataPath, record, handle: await open(dataPath, constants.O_RDWR | constants.O_NOFOLLOW) };
  }
  await rm(dataPath, { force: true, recursive: true });
  await rm(join(dir, SIDECAR), { force: true, recursive: true });
  const handle = await open(
    dataPath,
    constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  return { dir, dataPath, record: undefined, handle };
}

/** Writes the sidecar atomically (new file, then rename); never through a link. */
export async function saveSidecar(slot: PartialSlot, record: PartialRecord): Promise<void> {
  const tmp = join(slot.dir, `${SIDECAR}.${process.pid}.tmp`);
  await rm(tmp, { force: true, recursive: true });
  const fh = await openNewFile(tmp, 0o600);
  try {
    await fh.writeFile(JSON.stringify(record));
  } finally {
    await fh.close();
  }
  await rename(tmp, join(slot.dir, SIDECAR));
}

/** Forgets the sidecar (the bytes on disk no longer match any validator). */
export async function dropSidecar(slot: PartialSlot): Promise<void> {
  await rm(join(slot.dir, SIDECAR), { force: true });
}

/** Lets the slot go, keeping its bytes and sidecar for the next run. */
export async function releaseSlot(slot: PartialSlot): Promise<void> {
  await rm(join(slot.dir, LOCK), { force: true });
}

/** Removes the slot entirely (the download finished, or its bytes are worthless). */
export async function clearSlot(slot: PartialSlot): Promise<void> {
  await rm(slot.dir, { recursive: true, force: true });
}

/** Merges sorted or unsorted ranges into the canonical form (sorted, no overlaps, none empty). */
export function mergeRanges(ranges: ByteRanges): ByteRanges {
  const sorted = ranges.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const out: ByteRanges = [];
  for (const [a, b] of sorted) {
    const last = out.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

async function isOurDir(dir: string): Promise<boolean> {
  const st = await lstat(dir).catch(() => undefined);
  if (!st) return true;
  return st.isDirectory() && st.uid === process.getuid?.();
}

// The lock names its owner (`<pid>.<boot>`); one whose owner is gone is taken over.
async function takeLock(dir: string): Promise<boolean> {
  const path = join(dir, LOCK);
  const me = `${process.pid}.${await bootTag()}`;
  for (let i = 0; i < 2; i++) {
    try {
      const fh = await openNewFile(path, 0o600);
      await fh.writeFile(me);
      await fh.close();
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = await readSmall(path, 64);
    const m = owner === undefined ? null : /^(\d{1,10})\.([0-9a-f]{8})$/.exec(owner);
    const live = m !== null && m[2] === (await bootTag()) && isProcessAlive(Number(m[1]));
    if (live) return false;
    await rm(path, { force: true, recursive: true });
  }
  return false;
}

async function readSmall(path: string, max: number): Promise<string | undefined> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(path, READ_FLAGS);
    const st = await fh.stat();
    if (!st.isFile() || st.size > max || st.uid !== process.getuid?.()) return undefined;
    const buf = Buffer.alloc(st.size);
    await fh.read(buf, 0, st.size, 0);
    return buf.toString('utf8');
  } catch {
    return undefined;
  } finally {
    await fh?.close();
  }
}

// The sidecar, when it is ours, well formed, for this URL, and the data file agrees with it.
async function readSound(dir: string, url: string): Promise<PartialRecord | undefined> {
  const text = await readSmall(join(dir, SIDECAR), PARTIAL_LIMITS.maxSidecarBytes);
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const record = asRecord(raw);
  if (!record || record.url !== url) return undefined;
  const st = await lstat(join(dir, DATA)).catch(() => undefined);
  if (!st?.isFile() || st.uid !== process.getuid?.()) return undefined;
  const covered = record.ranges.at(-1)?.[1] ?? 0;
  if (st.size < covered || st.size > record.size) return undefined;
  return record;
}

function asRecord(raw: unknown): PartialRecord | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const { url, validator, size, ranges } = r;
  if (typeof url !== 'string' || typeof validator !== 'string') return undefined;
  if (validator === '' || validator.length > PARTIAL_LIMITS.maxValidatorChars) return undefined;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size <= 0) return undefined;
  if (!Array.isArray(ranges) || ranges.length > PARTIAL_LIMITS.maxRanges) return undefined;
  let prev = 0;
  const out: ByteRanges = [];
  for (const item of ranges as unknown[]) {
    if (!Array.isArray(item) || item.length !== 2) return undefined;
    const [a, b] = item as unknown[];
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) return undefined;
    const start = a as number;
    const end = b as number;
    if (start < prev || end <= start || end > size) return undefined;
    out.push([start, end]);
    prev = end;
  }
  return { url, validator, size, ranges: out };
}

// Drops partials past their age, then the oldest beyond the count and byte bounds; `keep` (this
// run's slot) is judged by age only. Entries that are not our folders are removed unread.
async function prunePartials(cacheDir: string, keep: string): Promise<void> {
  const root = join(cacheDir, PARTIALS);
  const rootSt = await lstat(root).catch(() => undefined);
  if (!rootSt) return;
  if (!rootSt.isDirectory()) {
    await rm(root, { force: true });
    return;
  }
  const now = Date.now();
  const entries: Array<{ path: string; mtimeMs: number; bytes: number }> = [];
  for (const name of await readdir(root)) {
    const path = join(root, name);
    const st = await lstat(path).catch(() => undefined);
    if (!st) continue;
    if (!st.isDirectory() || st.uid !== process.getuid?.() || now - st.mtimeMs > PARTIAL_LIMITS.maxAgeMs) {
      await rm(path, { recursive: true, force: true });
      continue;
    }
    if (path === keep) continue;
    const data = await lstat(join(path, DATA)).catch(() => undefined);
    entries.push({ path, mtimeMs: st.mtimeMs, bytes: data?.isFile() ? data.size : 0 });
  }
  entries.sort((a, b) => b.mtimeMs - a.mtimeMs);
  let total = 0;
  for (const [i, e] of entries.entries()) {
    total += e.bytes;
    if (i + 1 >= PARTIAL_LIMITS.maxEntries || total > PARTIAL_LIMITS.maxTotalBytes) {
      await rm(e.path, { recursive: true, force: true });
    }
  }
}
