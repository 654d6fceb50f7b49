import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { Layout, Paths } from '../core/paths.js';

// The shape lives in core so Context (core) need not import upward; resolving it is config's job.
export type { Layout, Paths } from '../core/paths.js';

/** The FHS folders of `--system` (root only): the one alternative set of defaults to the XDG ones. */
export const SYSTEM_DIRS = {
  config: '/etc/appimage-keeper',
  state: '/var/lib/appimage-keeper',
  cache: '/var/cache/appimage-keeper',
  data: '/usr/local/share',
  storage: '/opt/appimages',
  symlinks: '/usr/local/bin',
} as const;

export const TOOL_DIR_NAME = 'appimage-keeper';

/** XDG base dir: relative values are ignored as the spec requires. */
function xdg(env: NodeJS.ProcessEnv, name: string, home: string, fallback: string): string {
  const value = env[name];
  if (value && isAbsolute(value)) return value;
  return join(home, fallback);
}

// Where each layout keeps its folders before a --config-dir override; the XDG variables only
// steer the per-user layout (root's environment must not move what every account runs).
interface LayoutRoots {
  defaultConfigDir: string;
  stateRoot: string;
  cacheDir: string;
  dataHome: string;
  dataDirs: string[];
  fieldDefaults: Paths['fieldDefaults'];
}

function userRoots(env: NodeJS.ProcessEnv, home: string): LayoutRoots {
  const configHome = xdg(env, 'XDG_CONFIG_HOME', home, '.config');
  const stateHome = xdg(env, 'XDG_STATE_HOME', home, join('.local', 'state'));
  const cacheHome = xdg(env, 'XDG_CACHE_HOME', home, '.cache');
  return {
    defaultConfigDir: join(configHome, TOOL_DIR_NAME),
    stateRoot: join(stateHome, TOOL_DIR_NAME),
    cacheDir: join(cacheHome, TOOL_DIR_NAME),
    dataHome: xdg(env, 'XDG_DATA_HOME', home, join('.local', 'share')),
    dataDirs: dataDirsOf(env),
    fieldDefaults: {},
  };
}

function systemRoots(): LayoutRoots {
  return {
    defaultConfigDir: SYSTEM_DIRS.config,
    stateRoot: SYSTEM_DIRS.state,
    cacheDir: SYSTEM_DIRS.cache,
    dataHome: SYSTEM_DIRS.data,
    // Our own entries live in /usr/local/share: only /usr/share holds entries of the distribution.
    dataDirs: ['/usr/share'],
    fieldDefaults: { storage_dir: SYSTEM_DIRS.storage, symlink_dir: SYSTEM_DIRS.symlinks },
  };
}

/** Resolves every path from the environment, an optional --config-dir override and the layout. */
export function resolvePaths(
  env: NodeJS.ProcessEnv,
  configDirOverride?: string,
  layout: Layout = 'user',
): Paths {
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir();
  const roots = layout === 'system' ? systemRoots() : userRoots(env, home);
  const { defaultConfigDir, dataHome } = roots;
  const configDir = configDirOverride ? resolve(expandHome(configDirOverride, env)) : defaultConfigDir;
  // Two config dirs must never share state or a lock: a non-default one gets its own sub-folder.
  const stateDir =
    configDir === defaultConfigDir
      ? roots.stateRoot
      : join(roots.stateRoot, 'profiles', profileKey(configDir));
  return {
    layout,
    home,
    configDir,
    configFile: join(configDir, 'config.yml'),
    secretsFile: join(configDir, 'secrets.yml'),
    appsDir: join(configDir, 'apps'),
    stateDir,
    stateFile: join(stateDir, 'state.json'),
    lockFile: join(stateDir, 'lock'),
    cacheDir: roots.cacheDir,
    dataHome,
    dataDirs: roots.dataDirs,
    applicationsDir: join(dataHome, 'applications'),
    iconsDir: join(dataHome, 'icons'),
    fieldDefaults: roots.fieldDefaults,
  };
}

/** `$XDG_DATA_DIRS`: relative entries are ignored; unset or empty means the spec's default. */
function dataDirsOf(env: NodeJS.ProcessEnv): string[] {
  const dirs = (env.XDG_DATA_DIRS ?? '').split(':').filter((d) => d !== '' && isAbsolute(d));
  return dirs.length > 0 ? dirs : ['/usr/local/share', '/usr/share'];
}

/** A stable, readable folder name for a config dir path. */
function profileKey(configDir: string): string {
  let hash = 0x811c9dc5;
  for (const ch of configDir) {
    hash ^= ch.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  const tail = configDir
    .split('/')
    .filter(Boolean)
    .slice(-2)
    .join('-')
    .replace(/[^A-Za-z0-9._-]/g, '_');
  return `${tail || 'root'}-${hash.toString(16).padStart(8, '0')}`;
}

/** Expands a leading `~` and `$HOME`/`${HOME}` in a path field. */
export function expandHome(value: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir();
  let out = value.replace(/\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g, home);
  if (out === '~') out = home;
  else if (out.startsWith('~/')) out = join(home, out.slice(2));
  return out;
}
