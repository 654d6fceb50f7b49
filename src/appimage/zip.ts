import { open as openFile, rm, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { compileGlob } from '../config/recipe-glob.js';
import yauzl from 'yauzl';
import { KeeperError } from '../core/errors.js';
import { ensureFreeSpace } from '../core/free-space.js';
import { createTempFile } from '../core/atomic-files.js';

// The default of max_asset_size: no AppImage is this big.
const DEFAULT_MAX_ENTRY_BYTES = 4 * 1024 ** 3;
const MAX_ENTRIES = 100_000;
const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Whether the file starts like a ZIP archive (local file header or an empty archive's end record). */
export async function isZip(path: string): Promise<boolean> {
  const fh = await openFile(path, 'r');
  try {
    const buf = Buffer.alloc(4);
    const { bytesRead } = await fh.read(buf, 0, 4, 0);
    if (bytesRead < 4 || buf[0] !== 0x50 || buf[1] !== 0x4b) return false;
    const sig = buf.readUInt16LE(2);
    return sig === 0x0403 || sig === 0x0605 || sig === 0x0807;
  } finally {
    await fh.close();
  }
}

/**
 * Extracts the AppImage from a ZIP asset into a temp file in `destDir`. The entry is chosen by
 * `innerMatch` (a glob: without `/` it matches the entry's file name, with `/` its whole path),
 * else the one entry named `*.AppImage`, else the first entry starting with ELF magic. Archives
 * with paths that escape (absolute, `..`, backslashes) are refused as a whole. An entry larger
 * than `maxEntryBytes` (the configured max_asset_size) or than the free space of `destDir` is
 * refused before a byte is written.
 */
export async function extractAppImageFromZip(
  zipPath: string,
  destDir: string,
  tempPrefix: string,
  innerMatch?: string,
  maxEntryBytes: number = DEFAULT_MAX_ENTRY_BYTES,
): Promise<{ path: string; entryName: string }> {
  const zip = await openZip(zipPath);
  try {
    const entries = await readEntries(zip, zipPath);
    const files = entries.filter((e) => !e.fileName.endsWith('/') && !isSymlink(e));
    const entry = await chooseEntry(zip, files, entries, innerMatch, zipPath);
    return {
      path: await extractEntry(zip, entry, destDir, tempPrefix, maxEntryBytes),
      entryName: entry.fileName,
    };
  } finally {
    zip.close();
  }
}

async function chooseEntry(
  zip: yauzl.ZipFile,
  files: yauzl.Entry[],
  all: yauzl.Entry[],
  innerMatch: string | undefined,
  zipPath: string,
): Promise<yauzl.Entry> {
  const listing = all.map((e) => e.fileName);
  if (innerMatch !== undefined) {
    const isMatch = compileGlob(innerMatch, { dot: true });
    const byPath = innerMatch.includes('/');
    const hits = files.filter((e) => isMatch(byPath ? e.fileName : baseName(e.fileName)));
    if (hits.length > 1) {
      throw new KeeperError(
        'ZIP_AMBIGUOUS',
        `inner_asset_match '${innerMatch}' matches ${hits.length} entries: ${hits.map((e) => e.fileName).join(', ')}`,
        { hint: 'make inner_asset_match more specific', details: { matches: hits.map((e) => e.fileName) } },
      );
    }
    if (hits[0]) return hits[0];
    throw noAppImage(`no entry matches inner_asset_match '${innerMatch}'`, listing, zipPath);
  }
  const named = files.filter((e) => /\.appimage$/i.test(e.fileName));
  if (named.length > 1) {
    throw new KeeperError(
      'ZIP_AMBIGUOUS',
      `the archive holds ${named.length} AppImages: ${named.map((e) => e.fileName).join(', ')}`,
      { hint: 'choose one with inner_asset_match', details: { matches: named.map((e) => e.fileName) } },
    );
  }
  if (named[0]) return named[0];
  for (const entry of files) {
    if (await startsWithElf(zip, entry)) return entry;
  }
  throw noAppImage('no entry is named *.AppImage or is an ELF file', listing, zipPath);
}

function noAppImage(why: string, listing: string[], zipPath: string): KeeperError {
  const shown =
    listing.length > 50 ? [...listing.slice(0, 50), `... (${listing.length - 50} more)`] : listing;
  return new KeeperError(
    'ZIP_NO_APPIMAGE',
    `${why} in ${zipPath}; entries: ${shown.join(', ') || '(none)'}`,
    {
      hint: 'set inner_asset_match to the AppImage inside the archive',
      details: { entries: listing },
    },
  );
}

function baseName(name: string): string {
  return name.split('/').pop() ?? name;
}

function isSymlink(entry: yauzl.Entry): boolean {
  // Unix mode lives in the high 16 bits of the external attributes when made on Unix.
  return ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
}

/** Why a path from the archive is unsafe to use, or undefined when it is a plain relative path. */
function unsafeReason(name: string): string | undefined {
  if (name.includes('\\')) return 'contains a backslash';
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return 'is absolute';
  if (name.split('/').includes('..')) return "contains '..'";
  if (name.includes('\0')) return 'contains a NUL byte';
  return undefined;
}

async function openZip(zipPath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // strictFileNames keeps backslashes so they are refused instead of silently rewritten.
    yauzl.open(
      zipPath,
      { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true },
      (err, zip) => {
        if (err)
          reject(
            new KeeperError('ZIP_INVALID', `cannot read ZIP ${zipPath}: ${err.message}`, { cause: err }),
          );
        else resolve(zip);
      },
    );
  });
}

async function readEntries(zip: yauzl.ZipFile, zipPath: string): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      const why = unsafeReason(entry.fileName);
      if (why) {
        reject(unsafePath(entry.fileName, why, zipPath));
        return;
      }
      entries.push(entry);
      if (entries.length > MAX_ENTRIES) {
        reject(new KeeperError('ZIP_INVALID', `${zipPath} has more than ${MAX_ENTRIES} entries`));
        return;
      }
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (err: Error) => {
      // yauzl refuses unsafe names itself before we see the entry; keep one error code for both.
      const m = /^(invalid characters in fileName|absolute path|invalid relative path): (.*)$/s.exec(
        err.message,
      );
      if (m) reject(unsafePath(m[2] ?? '', m[1] ?? 'unsafe', zipPath));
      else
        reject(new KeeperError('ZIP_INVALID', `cannot read ZIP ${zipPath}: ${err.message}`, { cause: err }));
    });
    zip.readEntry();
  });
}

function unsafePath(name: string, why: string, zipPath: string): KeeperError {
  return new KeeperError('ZIP_UNSAFE_PATH', `refusing ${zipPath}: entry '${name}' ${why}`, {
    hint: 'the archive tries to write outside its folder; it was not extracted',
    details: { entry: name },
  });
}

async function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err)
        reject(new KeeperError('ZIP_INVALID', `cannot read ZIP entry ${entry.fileName}: ${err.message}`));
      else resolve(stream);
    });
  });
}

async function startsWithElf(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<boolean> {
  if (entry.uncompressedSize < ELF_MAGIC.length) return false;
  const stream = await openEntry(zip, entry);
  const chunks: Buffer[] = [];
  let got = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      got += chunk.length;
      if (got >= ELF_MAGIC.length) break;
    }
  } catch {
    return false;
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, ELF_MAGIC.length).equals(ELF_MAGIC);
}

async function extractEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  destDir: string,
  prefix: string,
  maxEntryBytes: number,
): Promise<string> {
  if (entry.uncompressedSize > maxEntryBytes) {
    throw new KeeperError(
      'ZIP_ENTRY_TOO_LARGE',
      `entry ${entry.fileName} declares ${entry.uncompressedSize} bytes, over max_asset_size (${maxEntryBytes})`,
      {
        hint: 'no AppImage is that big; if this one really is, raise max_asset_size',
        details: { declared: entry.uncompressedSize, max: maxEntryBytes },
      },
    );
  }
  await ensureFreeSpace(destDir, entry.uncompressedSize, `extracting ${entry.fileName}`);
  const temp = await createTempFile(destDir, prefix);
  try {
    const source = await openEntry(zip, entry);
    let written = 0;
    for await (const chunk of source as AsyncIterable<Buffer>) {
      written += chunk.length;
      if (written > entry.uncompressedSize || written > maxEntryBytes) {
        source.destroy();
        throw new KeeperError(
          'ZIP_BOMB',
          `entry ${entry.fileName} inflates past its declared ${entry.uncompressedSize} bytes; extraction stopped`,
        );
      }
      await writeAll(temp.handle, chunk, written - chunk.length);
    }
    await temp.handle.sync();
    await temp.handle.close();
    return temp.path;
  } catch (err) {
    await temp.handle.close().catch(() => undefined);
    await rm(temp.path, { force: true });
    if (err instanceof KeeperError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    // yauzl's own size validation fires first when an entry inflates past its declared size.
    if (/too many bytes/i.test(message)) {
      throw new KeeperError(
        'ZIP_BOMB',
        `entry ${entry.fileName} inflates past its declared size: ${message}`,
      );
    }
    throw new KeeperError('ZIP_INVALID', `cannot extract ${entry.fileName}: ${message}`, { cause: err });
  }
}

async function writeAll(file: FileHandle, chunk: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < chunk.length) {
    const { bytesWritten } = await file.write(chunk, done, chunk.length - done, position + done);
    done += bytesWritten;
  }
}
