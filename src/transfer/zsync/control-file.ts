import { zsyncError } from './errors.js';

/** A parsed `.zsync` control file (zsync 0.6.2 format). */
export interface ZsyncControl {
  /** Value of the `zsync:` header (the generator's version), if present. */
  version: string | undefined;
  /** `Min-Version:` (a client older than this must refuse the file). */
  minVersion: string | undefined;
  filename: string | undefined;
  mtime: Date | undefined;
  blockSize: number;
  /** Length of the target file in bytes. */
  length: number;
  blockCount: number;
  /** 1, or 2 when a block only counts as found if the following block matches too. */
  seqMatches: 1 | 2;
  /** Bytes of the rolling checksum kept per block (1..4). */
  rsumBytes: number;
  /** Bytes of the MD4 kept per block (3..16). */
  checksumBytes: number;
  /** `URL:` values in file order, as written (possibly relative to the control file's URL). */
  urls: string[];
  /** `Z-URL:` values (gzip-compressed copies of the target, which we do not use). */
  compressedUrls: string[];
  /** Whole-file SHA-1, lower-case hex. */
  sha1: string | undefined;
  /**
   * Per block, the big-endian 4-byte value `(a << 16) | b` of the rolling checksum masked to the
   * low `rsumBytes` bytes, exactly as stored in the file.
   */
  rsums: Uint32Array;
  /** `checksumBytes` leading bytes of each block's MD4 (last block zero-padded), block after block. */
  checksums: Uint8Array;
}

/** Highest format version we implement; `Min-Version:` above it means the file needs a newer client. */
const FORMAT_VERSION = '0.6.2';
const MAX_LINE = 16 * 1024;
const MAX_HEADERS = 1000;
const MIN_BLOCK_SIZE = 16;
const MAX_BLOCK_SIZE = 1 << 24;

const KNOWN = new Set([
  'zsync',
  'Min-Version',
  'Filename',
  'Z-Filename',
  'MTime',
  'Blocksize',
  'Length',
  'Hash-Lengths',
  'URL',
  'Z-URL',
  'SHA-1',
  'Z-Map2',
  'Recompress',
  'Safe',
]);
const SINGLE = new Set(['Blocksize', 'Length', 'Hash-Lengths', 'SHA-1', 'Min-Version']);

function invalid(message: string): Error {
  return zsyncError('CONTROL_INVALID', `invalid zsync control file: ${message}`);
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split('.').map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function parseCount(name: string, value: string): number {
  if (!/^\d{1,16}$/.test(value)) throw invalid(`${name} is not a non-negative integer: "${value}"`);
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw invalid(`${name} is too large: ${value}`);
  return n;
}

interface RawHeaders {
  values: Map<string, string[]>;
  order: string[];
  /** Offset of the first byte after the blank line that ends the headers. */
  bodyOffset: number;
}

function readHeaders(buf: Buffer): RawHeaders {
  const values = new Map<string, string[]>();
  const order: string[] = [];
  let pos = 0;
  for (let count = 0; ; count++) {
    if (count > MAX_HEADERS) throw invalid('too many header lines');
    const nl = buf.indexOf(0x0a, pos);
    if (nl < 0) throw invalid('header section does not end with a blank line');
    if (nl - pos > MAX_LINE) throw invalid(`header line longer than ${MAX_LINE} bytes`);
    let line = buf.toString('utf8', pos, nl);
    pos = nl + 1;
    if (line === '' || line === '\r') return { values, order, bodyOffset: pos };
    line = line.replace(/[\r ]+$/, '');
    const colon = line.indexOf(': ');
    if (colon <= 0) throw invalid(`not a zsync header line: "${line.slice(0, 80)}"`);
    const key = line.slice(0, colon);
    const value = line.slice(colon + 2);
    const list = values.get(key);
    if (list) {
      if (SINGLE.has(key)) throw invalid(`duplicate ${key} header`);
      list.push(value);
    } else {
      values.set(key, [value]);
      order.push(key);
    }
    // Z-Map2's binary map sits right after its own header line, inside the header section.
    if (key === 'Z-Map2') {
      const entries = parseCount('Z-Map2', value);
      pos += entries * 4;
      if (pos > buf.length) throw invalid('Z-Map2 data is truncated');
    }
  }
}

function first(h: RawHeaders, key: string): string | undefined {
  return h.values.get(key)?.[0];
}

function parseHashLengths(value: string | undefined): {
  seqMatches: 1 | 2;
  rsumBytes: number;
  checksumBytes: number;
} {
  // Defaults of zsync before the header existed.
  if (value === undefined) return { seqMatches: 1, rsumBytes: 4, checksumBytes: 16 };
  const m = /^(\d+),(\d+),(\d+)$/.exec(value);
  if (!m) throw invalid(`Hash-Lengths must be "seq_matches,rsum_bytes,checksum_bytes": "${value}"`);
  const seq = Number(m[1]);
  const rsumBytes = Number(m[2]);
  const checksumBytes = Number(m[3]);
  if (seq !== 1 && seq !== 2) throw invalid(`Hash-Lengths seq_matches must be 1 or 2, got ${seq}`);
  if (rsumBytes < 1 || rsumBytes > 4) throw invalid(`Hash-Lengths rsum_bytes must be 1..4, got ${rsumBytes}`);
  if (checksumBytes < 3 || checksumBytes > 16)
    throw invalid(`Hash-Lengths checksum_bytes must be 3..16, got ${checksumBytes}`);
  return { seqMatches: seq, rsumBytes, checksumBytes };
}

function checkCompatibility(h: RawHeaders): void {
  const version = first(h, 'zsync');
  if (version !== undefined && version.startsWith('0.0.'))
    throw zsyncError(
      'CONTROL_UNSUPPORTED',
      `zsync ${version} control files use an older, incompatible format`,
    );
  const minVersion = first(h, 'Min-Version');
  if (minVersion !== undefined && compareVersions(minVersion, FORMAT_VERSION) > 0)
    throw zsyncError(
      'CONTROL_UNSUPPORTED',
      `the control file needs zsync ${minVersion} or newer (we implement ${FORMAT_VERSION})`,
    );
  // Like zsync: a header we do not understand is fatal unless the file lists it under `Safe:`.
  const safe = new Set((first(h, 'Safe') ?? '').split(/[\s,]+/).filter(Boolean));
  for (const key of h.order) {
    if (!KNOWN.has(key) && !safe.has(key))
      throw zsyncError('CONTROL_UNSUPPORTED', `unknown zsync header "${key}" (a newer format?)`);
  }
}

/** Parses a `.zsync` control file: RFC 822-style headers, a blank line, then per-block checksums. */
export function parseControlFile(buf: Buffer): ZsyncControl {
  const h = readHeaders(buf);
  checkCompatibility(h);

  const bs = first(h, 'Blocksize');
  const len = first(h, 'Length');
  if (bs === undefined || len === undefined) throw invalid('missing Blocksize or Length header');
  const blockSize = parseCount('Blocksize', bs);
  if (blockSize < MIN_BLOCK_SIZE || blockSize > MAX_BLOCK_SIZE || (blockSize & (blockSize - 1)) !== 0)
    throw invalid(`Blocksize must be a power of two in ${MIN_BLOCK_SIZE}..${MAX_BLOCK_SIZE}, got ${bs}`);
  const length = parseCount('Length', len);
  const { seqMatches, rsumBytes, checksumBytes } = parseHashLengths(first(h, 'Hash-Lengths'));

  const urls = h.values.get('URL') ?? [];
  const compressedUrls = h.values.get('Z-URL') ?? [];
  if (urls.length === 0 && compressedUrls.length === 0) throw invalid('no URL header');

  const sha1Raw = first(h, 'SHA-1');
  if (sha1Raw !== undefined && !/^[0-9a-fA-F]{40}$/.test(sha1Raw))
    throw invalid(`SHA-1 is not 40 hex digits: "${sha1Raw.slice(0, 80)}"`);

  let mtime: Date | undefined;
  const mtimeRaw = first(h, 'MTime');
  if (mtimeRaw !== undefined) {
    const d = new Date(mtimeRaw);
    mtime = Number.isNaN(d.getTime()) ? undefined : d;
  }

  const blockCount = Math.ceil(length / blockSize);
  const entry = rsumBytes + checksumBytes;
  const need = blockCount * entry;
  const available = buf.length - h.bodyOffset;
  if (available < need)
    throw invalid(
      `block checksums are truncated: ${blockCount} blocks need ${need} bytes, found ${available}`,
    );

  const rsums = new Uint32Array(blockCount);
  const checksums = new Uint8Array(blockCount * checksumBytes);
  let p = h.bodyOffset;
  for (let id = 0; id < blockCount; id++) {
    let v = 0;
    for (let i = 0; i < rsumBytes; i++) v = v * 256 + buf[p + i]!;
    rsums[id] = v;
    p += rsumBytes;
    checksums.set(buf.subarray(p, p + checksumBytes), id * checksumBytes);
    p += checksumBytes;
  }

  return {
    version: first(h, 'zsync'),
    minVersion: first(h, 'Min-Version'),
    filename: first(h, 'Filename'),
    mtime,
    blockSize,
    length,
    blockCount,
    seqMatches,
    rsumBytes,
    checksumBytes,
    urls,
    compressedUrls,
    sha1: sha1Raw?.toLowerCase(),
    rsums,
    checksums,
  };
}
