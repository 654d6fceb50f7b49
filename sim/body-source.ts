/**
 * Turns an AssetBody into something that can report its size and validators and stream any byte
 * range without holding the whole content in memory.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { generatedChunks } from './generator.js';
import type { ByteChunks } from './send-body.js';
import type { AssetBody, AssetOptions } from './types.js';

/** Current snapshot of an asset: size, validators and a range reader. */
export interface AssetSnapshot {
  size: number;
  etag: string | undefined;
  lastModified: Date | undefined;
  contentType: string;
  /** Streams bytes [start, end] (end inclusive). */
  read(start: number, endInclusive: number): ByteChunks;
}

/** A stored asset; `snapshot()` re-reads a file's size and mtime on every request. */
export interface StoredAsset {
  /** Size known without I/O (undefined for files). */
  knownSize: number | undefined;
  snapshot(): Promise<AssetSnapshot>;
}

const SLICE = 64 * 1024;

function* bufferSlices(buffer: Buffer, start: number, endInclusive: number): Iterable<Buffer> {
  for (let at = start; at <= endInclusive; at += SLICE) {
    yield buffer.subarray(at, Math.min(at + SLICE, endInclusive + 1));
  }
}

async function* fileSlices(file: string, start: number, endInclusive: number): AsyncIterable<Buffer> {
  if (endInclusive < start) return;
  for await (const chunk of createReadStream(file, { start, end: endInclusive, highWaterMark: SLICE })) {
    yield chunk as Buffer;
  }
}

function quote(tag: string): string {
  return tag.startsWith('"') || tag.startsWith('W/"') ? tag : `"${tag}"`;
}

/** Builds the stored form of an asset; validators are computed here or, for files, per request. */
export function storeAsset(body: AssetBody, options: AssetOptions = {}): StoredAsset {
  const putAt = new Date();
  const lastModified = options.lastModified === false ? undefined : (options.lastModified ?? putAt);
  const contentType = options.contentType ?? 'application/octet-stream';
  const explicitEtag = typeof options.etag === 'string' ? quote(options.etag) : undefined;
  const etagWanted = options.etag !== false;

  if (Buffer.isBuffer(body)) {
    const etag = etagWanted
      ? (explicitEtag ?? `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`)
      : undefined;
    const snap: AssetSnapshot = {
      size: body.length,
      etag,
      lastModified,
      contentType,
      read: (s, e) => bufferSlices(body, s, e),
    };
    return { knownSize: body.length, snapshot: () => Promise.resolve(snap) };
  }
  if ('file' in body) {
    const file = body.file;
    return {
      knownSize: undefined,
      async snapshot() {
        const st = await stat(file);
        const etag = etagWanted
          ? (explicitEtag ?? `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`)
          : undefined;
        return { size: st.size, etag, lastModified, contentType, read: (s, e) => fileSlices(file, s, e) };
      },
    };
  }
  const { size, seed } = body;
  const etag = etagWanted ? (explicitEtag ?? `"gen-${size.toString(16)}-${seed.toString(16)}"`) : undefined;
  const snap: AssetSnapshot = {
    size,
    etag,
    lastModified,
    contentType,
    read: (s, e) => generatedChunks(seed, s, e + 1),
  };
  return { knownSize: size, snapshot: () => Promise.resolve(snap) };
}
