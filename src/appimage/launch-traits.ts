/**
 * What an AppImage needs from the host to start, read from the file without running it: whether it
 * is an Electron app (whose Chromium sandbox needs unprivileged user namespaces) and whether its
 * runtime is an old one that loads `libfuse.so.2` at start.
 */
import { open } from 'node:fs/promises';
import { openAppImage } from './open-appimage.js';
import type { SquashfsDirent, SquashfsImage } from './squashfs/index.js';

/** Launch-relevant traits of one AppImage. */
export interface LaunchTraits {
  /** In-image path that marks an Electron app (`chrome-sandbox` or `resources/app.asar`), if any. */
  electronMarker: string | undefined;
  /** True when the runtime names `libfuse.so.2` (the pre-2022 runtime dlopens it to mount itself). */
  needsLibfuse2: boolean;
}

/** Old runtimes carry this name for dlopen; the static runtimes since 2022 link FUSE 3 in. */
const LIBFUSE2 = Buffer.from('libfuse.so.2\0', 'latin1');
/** A runtime is a small program; a larger "runtime" is not scanned beyond this. */
const MAX_RUNTIME_SCAN = 8 * 1024 * 1024;
/** How deep, and into how many directories, the image is searched for an Electron app. */
const MAX_DEPTH = 3;
const MAX_DIRS = 64;

/** Reads an AppImage's launch traits in-process: runtime bytes and a few SquashFS lookups. */
export async function readLaunchTraits(path: string): Promise<LaunchTraits> {
  const { elf, image } = await openAppImage(path);
  try {
    const [electronMarker, needsLibfuse2] = await Promise.all([
      findElectronMarker(image),
      runtimeNamesLibfuse2(path, elf.payloadOffset),
    ]);
    return { electronMarker, needsLibfuse2 };
  } finally {
    await image.close();
  }
}

/** True when the runtime part of the file (before the SquashFS payload) contains `libfuse.so.2`. */
export async function runtimeNamesLibfuse2(path: string, payloadOffset: number): Promise<boolean> {
  const length = Math.min(payloadOffset, MAX_RUNTIME_SCAN);
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, 0);
    return buf.subarray(0, bytesRead).includes(LIBFUSE2);
  } finally {
    await fh.close();
  }
}

/**
 * The first Electron marker, breadth first from the image root down to MAX_DEPTH directories
 * (electron-builder puts the app at the root; repackaged .deb apps under `opt/<App>/` or
 * `usr/lib/<app>/`), looking into at most MAX_DIRS directories.
 */
async function findElectronMarker(image: SquashfsImage): Promise<string | undefined> {
  let level: string[] = [''];
  let visited = 0;
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (visited++ >= MAX_DIRS) return undefined;
      const entries = await image.readdir(dir === '' ? '/' : dir).catch(() => [] as SquashfsDirent[]);
      const prefix = dir === '' ? '' : `${dir}/`;
      const found = markerIn(entries, prefix);
      if (found && (await confirm(image, found))) return found;
      for (const e of entries) if (e.type === 'dir') next.push(`${prefix}${e.name}`);
    }
    level = next;
  }
  return undefined;
}

function markerIn(entries: readonly SquashfsDirent[], prefix: string): string | undefined {
  if (entries.some((e) => e.name === 'chrome-sandbox' && e.type === 'file')) return `${prefix}chrome-sandbox`;
  if (entries.some((e) => e.name === 'resources' && e.type === 'dir')) return `${prefix}resources/app.asar`;
  return undefined;
}

/** A `resources/` directory is only Electron's when it holds `app.asar`. */
async function confirm(image: SquashfsImage, marker: string): Promise<boolean> {
  if (marker.endsWith('chrome-sandbox')) return true;
  return image.stat(marker).then(
    () => true,
    () => false,
  );
}
