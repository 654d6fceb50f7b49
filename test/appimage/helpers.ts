import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, readlink, lstat, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SquashfsImage } from '../../src/appimage/squashfs/index.js';

/** A fresh temp dir and its cleanup. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'ak-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Extracts an AppImage's payload with the reference tool, for comparison. */
export function unsquashfs(file: string, offset: number, dest: string): void {
  const res = spawnSync('unsquashfs', ['-o', String(offset), '-d', dest, '-no-xattrs', file], {
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`unsquashfs failed: ${res.stderr}`);
}

export type Node = { type: 'file'; data: Buffer } | { type: 'dir' } | { type: 'symlink'; target: string };

/** Every node of a directory on disk, by relative path. */
export async function snapshotDir(root: string, rel = ''): Promise<Map<string, Node>> {
  const out = new Map<string, Node>();
  for (const name of (await readdir(join(root, rel))).sort()) {
    const path = rel ? `${rel}/${name}` : name;
    const st = await lstat(join(root, path));
    if (st.isSymbolicLink()) out.set(path, { type: 'symlink', target: await readlink(join(root, path)) });
    else if (st.isDirectory()) {
      out.set(path, { type: 'dir' });
      for (const [k, v] of await snapshotDir(root, path)) out.set(k, v);
    } else out.set(path, { type: 'file', data: await readFile(join(root, path)) });
  }
  return out;
}

/** Every node of an image, read through our reader (symlinks not followed). */
export async function snapshotImage(image: SquashfsImage, rel = ''): Promise<Map<string, Node>> {
  const out = new Map<string, Node>();
  const entries = (await image.readdir(rel || '/')).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.type === 'symlink') out.set(path, { type: 'symlink', target: await image.readlink(path) });
    else if (e.type === 'dir') {
      out.set(path, { type: 'dir' });
      for (const [k, v] of await snapshotImage(image, path)) out.set(k, v);
    } else if (e.type === 'file')
      out.set(path, { type: 'file', data: await image.readFile(path, { maxBytes: 64 << 20 }) });
  }
  return out;
}
