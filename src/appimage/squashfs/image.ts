import { open } from 'node:fs/promises';
import { KeeperError } from '../../core/errors.js';
import { decompressorFor, type Decompressor } from './decompress.js';
import { readDirectory, type DirEntry } from './directory.js';
import { corrupt } from './errors.js';
import { FileDataReader } from './file-data.js';
import { readInode, type DirInode, type Inode } from './inode.js';
import { Lru } from './lru.js';
import { MetadataReader, type TableBounds } from './metadata.js';
import { resolveLinkTarget, splitImagePath } from './paths.js';
import { ImageSource } from './source.js';
import {
  CompressorId,
  METADATA_BLOCK_SIZE,
  parseSuperblock,
  SUPERBLOCK_SIZE,
  SuperFlag,
  type MetaRef,
  type Superblock,
} from './superblock.js';
import { FragmentTable, IdTable } from './tables.js';

export type SquashfsFileType = 'file' | 'dir' | 'symlink' | 'other';

/** One name in a directory. */
export interface SquashfsDirent {
  name: string;
  type: SquashfsFileType;
}

/** What `stat`/`lstat` report about a node. */
export interface SquashfsStat {
  type: SquashfsFileType;
  /** File size in bytes, symlink target length, directory listing size. */
  size: number;
  /** Permission bits. */
  mode: number;
  mtime: number;
  uid: number;
  gid: number;
  inodeNumber: number;
}

export interface ReadFileOptions {
  /** Refuse files larger than this (default 32 MiB): integration only needs small files. */
  maxBytes?: number;
}

const DEFAULT_MAX_FILE = 32 << 20;
/** Same limit as Linux's MAXSYMLINKS: more hops than this is a loop. */
const MAX_SYMLINK_HOPS = 40;
const MAX_PATH_DEPTH = 256;

const TYPE_NAMES: Record<number, SquashfsFileType> = { 1: 'dir', 2: 'file', 3: 'symlink' };

function typeName(type: number): SquashfsFileType {
  return TYPE_NAMES[type] ?? 'other';
}

function notFound(path: string): KeeperError {
  return new KeeperError('SQUASHFS_NOT_FOUND', `no ${JSON.stringify(path)} in the image`);
}

/**
 * A read-only view of a SquashFS 4.0 image inside a file, read lazily with positional reads: opening
 * it reads the superblock only; each lookup reads just the metadata and data blocks it needs.
 */
export class SquashfsImage {
  private readonly meta: MetadataReader;
  private readonly inodeBounds: TableBounds;
  private readonly dirBounds: TableBounds;
  private readonly files: FileDataReader;
  private readonly ids: IdTable;
  private readonly inodes = new Lru<string, Promise<Inode>>(1024);
  private readonly listings = new Lru<number, Promise<DirEntry[]>>(256);

  constructor(
    private readonly src: ImageSource,
    readonly superblock: Superblock,
    decompress: Decompressor,
  ) {
    const sb = superblock;
    this.meta = new MetadataReader(src, decompress);
    this.inodeBounds = { name: 'inode', start: sb.inodeTableStart, end: sb.directoryTableStart };
    this.dirBounds = { name: 'directory', start: sb.directoryTableStart, end: sb.bytesUsed };
    const fragments = new FragmentTable(src, this.meta, sb);
    this.files = new FileDataReader(src, this.meta, this.inodeBounds, decompress, sb, fragments);
    this.ids = new IdTable(src, this.meta, sb);
  }

  /** Bytes read from the file so far (superblock, metadata and data blocks). */
  get bytesRead(): number {
    return this.src.bytesRead;
  }

  /** Entries of the image's root directory. */
  listRoot(): Promise<SquashfsDirent[]> {
    return this.readdir('/');
  }

  /** Entries of a directory (symlinks along the path are followed inside the image). */
  async readdir(path: string): Promise<SquashfsDirent[]> {
    const { inode } = await this.lookup(path, true);
    if (inode.kind !== 'dir')
      throw new KeeperError('SQUASHFS_NOT_DIR', `${JSON.stringify(path)} is not a directory`);
    const entries = await this.listing(inode);
    return entries.map((e) => ({ name: e.name, type: typeName(e.type) }));
  }

  /** Information about the node a path names, following symlinks. */
  async stat(path: string): Promise<SquashfsStat> {
    return this.describe((await this.lookup(path, true)).inode);
  }

  /** Information about the node a path names, not following a final symlink. */
  async lstat(path: string): Promise<SquashfsStat> {
    return this.describe((await this.lookup(path, false)).inode);
  }

  /** Contents of a regular file (symlinks followed inside the image), refused above `maxBytes`. */
  async readFile(path: string, opts: ReadFileOptions = {}): Promise<Buffer> {
    const { inode, path: real } = await this.lookup(path, true);
    if (inode.kind !== 'file')
      throw new KeeperError('SQUASHFS_NOT_FILE', `${JSON.stringify(path)} is not a regular file`);
    const max = opts.maxBytes ?? DEFAULT_MAX_FILE;
    if (inode.size > max) {
      throw new KeeperError(
        'SQUASHFS_FILE_TOO_LARGE',
        `${JSON.stringify(real)} is ${inode.size} bytes (limit ${max})`,
      );
    }
    return this.files.read(inode);
  }

  /** The target text of a symlink. */
  async readlink(path: string): Promise<string> {
    const { inode } = await this.lookup(path, false);
    if (inode.kind !== 'symlink')
      throw new KeeperError('SQUASHFS_NOT_LINK', `${JSON.stringify(path)} is not a symlink`);
    return inode.target;
  }

  /** The canonical in-image path a path leads to after following symlinks (never outside the image). */
  async resolve(path: string): Promise<string> {
    return (await this.lookup(path, true)).path;
  }

  /** True when the path exists (after following symlinks); unsafe links and corruption still throw. */
  async exists(path: string): Promise<boolean> {
    try {
      await this.lookup(path, true);
      return true;
    } catch (err) {
      if (
        err instanceof KeeperError &&
        (err.code === 'SQUASHFS_NOT_FOUND' || err.code === 'SQUASHFS_NOT_DIR')
      )
        return false;
      throw err;
    }
  }

  /** Closes the file. */
  async close(): Promise<void> {
    await this.src.close();
  }

  private async describe(inode: Inode): Promise<SquashfsStat> {
    const size =
      inode.kind === 'file'
        ? inode.size
        : inode.kind === 'dir'
          ? inode.listingSize
          : inode.kind === 'symlink'
            ? Buffer.byteLength(inode.target)
            : 0;
    return {
      type: typeName(inode.type),
      size,
      mode: inode.mode & 0o7777,
      mtime: inode.mtime,
      uid: await this.ids.get(inode.uidIndex),
      gid: await this.ids.get(inode.gidIndex),
      inodeNumber: inode.inodeNumber,
    };
  }

  private inode(ref: MetaRef): Promise<Inode> {
    if (ref.block >= this.inodeBounds.end - this.inodeBounds.start || ref.offset >= METADATA_BLOCK_SIZE) {
      return Promise.reject(corrupt('inode reference outside the inode table'));
    }
    const key = `${ref.block}:${ref.offset}`;
    const hit = this.inodes.get(key);
    if (hit) return hit;
    const loading = readInode(
      this.meta,
      this.superblock,
      this.inodeBounds,
      this.meta.cursor(ref, this.inodeBounds),
    );
    this.inodes.set(key, loading);
    loading.catch(() => this.inodes.delete(key));
    return loading;
  }

  private listing(dir: DirInode): Promise<DirEntry[]> {
    const hit = this.listings.get(dir.inodeNumber);
    if (hit) return hit;
    const loading = readDirectory(this.meta, this.superblock, this.dirBounds, dir);
    this.listings.set(dir.inodeNumber, loading);
    loading.catch(() => this.listings.delete(dir.inodeNumber));
    return loading;
  }

  /**
   * Walks a path from the root. Symlinks in the middle (and at the end when `followLast`) are
   * replaced by their targets, resolved against their own directory; targets that are absolute or
   * climb above the root are refused, and more than 40 hops is a loop.
   */
  private async lookup(path: string, followLast: boolean): Promise<{ inode: Inode; path: string }> {
    let pending = splitImagePath(path);
    let done: string[] = [];
    let current = await this.inode(this.superblock.rootInode);
    let hops = 0;
    while (pending.length > 0) {
      if (done.length > MAX_PATH_DEPTH) throw corrupt('path nesting too deep');
      const name = pending[0] ?? '';
      if (current.kind !== 'dir') {
        throw new KeeperError(
          'SQUASHFS_NOT_DIR',
          `${JSON.stringify('/' + done.join('/'))} is not a directory`,
        );
      }
      const entry = (await this.listing(current)).find((e) => e.name === name);
      if (!entry) throw notFound('/' + [...done, name].join('/'));
      const next = await this.inode(entry.inode);
      if (next.type !== entry.type)
        throw corrupt(`entry ${JSON.stringify(name)} type disagrees with its inode`);
      const isLast = pending.length === 1;
      if (next.kind === 'symlink' && (!isLast || followLast)) {
        if (++hops > MAX_SYMLINK_HOPS) {
          throw new KeeperError(
            'SQUASHFS_SYMLINK_LOOP',
            `too many symlinks while resolving ${JSON.stringify(path)}`,
          );
        }
        const linkPath = '/' + [...done, name].join('/');
        // Restart from the root with the target spliced in: the walk re-validates every component.
        pending = [...resolveLinkTarget(done, next.target, linkPath), ...pending.slice(1)];
        done = [];
        current = await this.inode(this.superblock.rootInode);
        continue;
      }
      done.push(name);
      pending = pending.slice(1);
      current = next;
    }
    return { inode: current, path: '/' + done.join('/') };
  }
}

/**
 * The BCJ filter bitmask from xz compressor options (dictionary size, filters), stored as a metadata
 * block right after the superblock. Our decoders need no other compressor options.
 */
async function xzFilters(src: ImageSource, sb: Superblock): Promise<number> {
  if (!(sb.flags & SuperFlag.compressorOptions)) return 0;
  const meta = new MetadataReader(src, decompressorFor(sb.compressor));
  const bounds = { name: 'compressor options', start: SUPERBLOCK_SIZE, end: sb.inodeTableStart };
  const opts = await meta.read({ pos: SUPERBLOCK_SIZE, offset: 0 }, 8, bounds);
  return opts.readUInt32LE(4);
}

/**
 * Opens the SquashFS image that starts at byte `offset` of `path` (an AppImage's payload offset).
 * Only the superblock is read here.
 */
export async function openSquashfs(path: string, offset: number): Promise<SquashfsImage> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    if (offset < 0 || offset >= size) {
      throw new KeeperError(
        'SQUASHFS_NOT_FOUND',
        `payload offset ${offset} is outside the ${size}-byte file`,
      );
    }
    const src = new ImageSource(fh, offset, size - offset);
    if (src.size < SUPERBLOCK_SIZE) throw corrupt('file too small for a superblock');
    const sb = parseSuperblock(await src.read(0, SUPERBLOCK_SIZE), src.size);
    src.limit = sb.bytesUsed;
    const decompress = decompressorFor(sb.compressor, {
      xzFilters: sb.compressor === CompressorId.xz ? await xzFilters(src, sb) : 0,
    });
    return new SquashfsImage(src, sb, decompress);
  } catch (err) {
    await fh.close();
    throw err;
  }
}
