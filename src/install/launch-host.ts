/**
 * The host facts that decide whether an AppImage starts: the AppArmor switch that blocks Chromium's
 * sandbox (Ubuntu 24.04 and later) and whether `libfuse.so.2` can be loaded. Every path is read below
 * one root, `/` unless APPIMAGE_KEEPER_HOST_ROOT points elsewhere (tests build a fake host there).
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Environment variable naming the directory read as `/` for host facts (tests only). */
export const HOST_ROOT_ENV = 'APPIMAGE_KEEPER_HOST_ROOT';

/** The sysctl that makes unprivileged user namespaces need an AppArmor profile. */
export const USERNS_SYSCTL = 'kernel.apparmor_restrict_unprivileged_userns';
const USERNS_FILE = 'proc/sys/kernel/apparmor_restrict_unprivileged_userns';
const LD_CACHE = 'etc/ld.so.cache';
const LIBFUSE2 = 'libfuse.so.2';
/** Where distributions put libfuse.so.2, besides what ld.so.cache lists. */
const LIB_DIRS = [
  'lib',
  'lib64',
  'usr/lib',
  'usr/lib64',
  'usr/local/lib',
  ...['x86_64-linux-gnu', 'aarch64-linux-gnu', 'i386-linux-gnu', 'arm-linux-gnueabihf'].flatMap((t) => [
    `lib/${t}`,
    `usr/lib/${t}`,
  ]),
];
/** ld.so.cache is a few hundred KiB at most; a larger file is not ours to scan. */
const MAX_CACHE_BYTES = 16 * 1024 * 1024;

/** What the host allows. */
export interface HostLaunchConditions {
  /** `kernel.apparmor_restrict_unprivileged_userns` is 1. */
  usernsRestricted: boolean;
  /** Where `libfuse.so.2` was found (a library directory or the loader cache), if anywhere. */
  libfuse2: string | undefined;
}

/** The root directory host facts are read under. */
export function hostRoot(env: NodeJS.ProcessEnv): string {
  const root = env[HOST_ROOT_ENV];
  return root && root.startsWith('/') ? root : '/';
}

/** Reads the host's launch conditions below `root`. */
export async function probeHost(root: string): Promise<HostLaunchConditions> {
  const [usernsRestricted, libfuse2] = await Promise.all([readUsernsSwitch(root), findLibfuse2(root)]);
  return { usernsRestricted, libfuse2 };
}

async function readUsernsSwitch(root: string): Promise<boolean> {
  const text = await readFile(join(root, USERNS_FILE), 'utf8').catch(() => '');
  return text.trim() === '1';
}

async function findLibfuse2(root: string): Promise<string | undefined> {
  for (const dir of LIB_DIRS) {
    const path = join(root, dir, LIBFUSE2);
    if (
      await stat(path).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return `/${dir}/${LIBFUSE2}`;
  }
  const cache = join(root, LD_CACHE);
  const size = await stat(cache).then(
    (s) => (s.isFile() ? s.size : -1),
    () => -1,
  );
  if (size < 0 || size > MAX_CACHE_BYTES) return undefined;
  const bytes = await readFile(cache).catch(() => Buffer.alloc(0));
  // The cache stores each library's name NUL-terminated; the name preceded by a NUL is an entry.
  return bytes.includes(Buffer.from(`\0${LIBFUSE2}\0`, 'latin1')) ? `/${LD_CACHE}` : undefined;
}

/** True when an AppArmor profile file named `profileName` is installed on the host. */
export async function hasApparmorProfile(root: string, profileName: string): Promise<boolean> {
  return stat(join(root, 'etc/apparmor.d', profileName)).then(
    (s) => s.isFile(),
    () => false,
  );
}
