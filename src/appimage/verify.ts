import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { KeeperError } from '../core/errors.js';
import type { ByteTap } from '../transfer/download/index.js';
import { parseElfHeader, type ElfInfo } from './elf.js';
import { verifyPayloadFits } from './payload-fit.js';

/** What a downloaded AppImage must match. */
export interface VerifyExpectations {
  size?: number;
  /** Hex SHA-256 (a `sha256:` prefix is accepted). */
  sha256?: string;
  /** This machine's architecture in ELF terms, e.g. 'x86_64' (see hostArch()). */
  hostArch: string;
}

// A type-1 AppImage is an ISO 9660 image: its first volume descriptor says "CD001" here.
const ISO9660_MAGIC_OFFSET = 0x8001;
const HEADER_BYTES = 64;

/**
 * The transfer checks alone: size (VERIFY_SIZE) and SHA-256 (VERIFY_DIGEST). A ZIP asset gets
 * these on the archive, since the published size and digest describe it. Returns the file's size.
 */
export async function verifySizeAndDigest(
  path: string,
  exp: { size?: number | undefined; sha256?: string | undefined },
  computedSha256?: string,
): Promise<number> {
  const { size } = await stat(path);
  if (exp.size !== undefined && size !== exp.size) {
    throw new KeeperError('VERIFY_SIZE', `size mismatch: expected ${exp.size} bytes, got ${size}`, {
      details: { expected: exp.size, actual: size },
    });
  }
  if (exp.sha256 !== undefined) {
    const expected = normaliseDigest(exp.sha256);
    const actual = (computedSha256 ?? (await sha256File(path))).toLowerCase();
    if (expected !== actual) {
      throw new KeeperError('VERIFY_DIGEST', `SHA-256 mismatch: expected ${expected}, got ${actual}`, {
        hint: 'the file is corrupt or not the one the release published; it was not installed',
        details: { expected, actual },
      });
    }
  }
  return size;
}

/**
 * Checks a downloaded file before it may replace anything, in this order: size (VERIFY_SIZE),
 * SHA-256 (VERIFY_DIGEST), ELF magic (VERIFY_NOT_ELF), AppImage magic (VERIFY_NOT_APPIMAGE),
 * architecture (VERIFY_ARCH) and a payload that fits in the file (VERIFY_TRUNCATED). `computedSha256` is the digest the downloader computed on the way,
 * which saves reading the file again.
 */
export async function verifyAppImage(
  path: string,
  exp: VerifyExpectations,
  computedSha256?: string,
): Promise<{ arch: string; appImageType: 1 | 2 }> {
  const size = await verifySizeAndDigest(path, exp, computedSha256);
  const info = await readElf(path, size, 'an AppImage');
  let type = info.appImageType;
  if (type === 0 && (await readAt(path, ISO9660_MAGIC_OFFSET, 5)).toString('latin1') === 'CD001') type = 1;
  if (type === 0) {
    throw new KeeperError(
      'VERIFY_NOT_APPIMAGE',
      'an ELF executable without AppImage magic (not an AppImage)',
      {
        hint: 'the asset pattern may match a plain binary; check asset_match',
      },
    );
  }
  assertArch(info.arch, exp.hostArch);
  await verifyPayloadFits(path, size, type, info.payloadOffset);
  return { arch: info.arch, appImageType: type };
}

/**
 * The checks for a plain executable (the standalone tool replacing itself): size (VERIFY_SIZE),
 * SHA-256 (VERIFY_DIGEST), ELF magic (VERIFY_NOT_ELF) and architecture (VERIFY_ARCH).
 */
export async function verifyExecutable(
  path: string,
  exp: VerifyExpectations,
  computedSha256?: string,
): Promise<{ arch: string }> {
  const size = await verifySizeAndDigest(path, exp, computedSha256);
  const info = await readElf(path, size, 'an executable');
  assertArch(info.arch, exp.hostArch);
  return { arch: info.arch };
}

async function readElf(path: string, size: number, what: string): Promise<ElfInfo> {
  const head = await readAt(path, 0, HEADER_BYTES);
  try {
    return parseElfHeader(head);
  } catch (err) {
    throw new KeeperError('VERIFY_NOT_ELF', `not ${what}: ${describeContent(head, size)}`, {
      cause: err,
    });
  }
}

function assertArch(arch: string, hostArch: string): void {
  if (arch !== hostArch) {
    throw new KeeperError('VERIFY_ARCH', `built for ${arch}, this machine is ${hostArch}`, {
      hint: 'the asset pattern matched a build for another architecture; narrow asset_match',
      details: { arch, hostArch },
    });
  }
}

/** Reads the SHA-256 for `assetName` from a `.sha256` file (bare hex or `hex  name`) or a `SHA256SUMS` list. */
export function parseChecksumFile(text: string, assetName: string): string | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const hex = /^[0-9a-fA-F]{64}$/;
  if (lines.length === 1 && hex.test(lines[0] ?? '')) return lines[0]?.toLowerCase();
  for (const line of lines) {
    // GNU coreutils: `<hex>  <name>` (text) or `<hex> *<name>` (binary); BSD: `SHA256 (<name>) = <hex>`.
    const gnu = /^([0-9a-fA-F]{64})\s+\*?(.+)$/.exec(line);
    const bsd = /^SHA256\s*\((.+)\)\s*=\s*([0-9a-fA-F]{64})$/i.exec(line);
    const digest = gnu?.[1] ?? bsd?.[2];
    const name = gnu?.[2] ?? bsd?.[1];
    if (digest && name && sameAsset(name.trim(), assetName)) return digest.toLowerCase();
  }
  return undefined;
}

function sameAsset(listed: string, assetName: string): boolean {
  const base = listed.replace(/^\.\//, '').split('/').pop() ?? listed;
  return listed === assetName || base === assetName;
}

function normaliseDigest(value: string): string {
  return value
    .trim()
    .replace(/^sha256[:=]/i, '')
    .toLowerCase();
}

/** Hex SHA-256 of a file, streamed; `tap` sees the same bytes (a second digest in the same read). */
export async function sha256File(path: string, tap?: ByteTap): Promise<string> {
  const hash = createHash('sha256');
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  if (tap) stream.on('data', (chunk) => tap.update(chunk as Buffer));
  await pipeline(stream, hash);
  return hash.digest('hex');
}

async function readAt(path: string, position: number, length: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, position);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Says what a non-ELF file most likely is, so the error explains itself. */
function describeContent(head: Buffer, size: number): string {
  if (size === 0) return 'the file is empty';
  const text = head.toString('latin1').trimStart();
  const lower = text.toLowerCase();
  if (lower.startsWith('<!doctype') || lower.startsWith('<html') || text.startsWith('<')) {
    return 'got an HTML page instead of a binary (a login, error or download page?)';
  }
  if (text.startsWith('{') || text.startsWith('[')) return 'got JSON instead of a binary (an API error?)';
  if (head[0] === 0x50 && head[1] === 0x4b) return 'got a ZIP archive';
  if (head[0] === 0x1f && head[1] === 0x8b) return 'got gzip data (a tarball?)';
  if (head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) {
    return 'the ELF header is truncated or invalid';
  }
  return 'no ELF magic at the start of the file';
}
