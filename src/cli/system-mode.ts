import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Layout, Paths } from '../config/paths.js';
import { UsageError } from '../core/errors.js';
import { writeFileAtomic } from '../core/atomic-files.js';
import { isUnsafe, notRootOnlyError, walkTree, type Finding } from '../core/root-only.js';

/** The variable that asks for `--system` (for configuration management, where flags are awkward). */
export const SYSTEM_ENV = 'APPIMAGE_KEEPER_SYSTEM';

/** The umask of a `--system` run: folders 0755 and files 0644 for whatever we create without a mode. */
export const SYSTEM_UMASK = 0o022;

/** The layout asked for by `--system` or APPIMAGE_KEEPER_SYSTEM=1 (0 or empty: per-user). */
export function requestedLayout(flag: boolean, env: NodeJS.ProcessEnv): Layout {
  if (flag) return 'system';
  const value = env[SYSTEM_ENV];
  if (value === undefined || value === '' || value === '0') return 'user';
  if (value === '1') return 'system';
  throw new UsageError('SYSTEM_ENV_INVALID', `${SYSTEM_ENV} must be 1 or 0`, {
    hint: `unset it, or set ${SYSTEM_ENV}=1 for the system-wide layout`,
  });
}

/** The effective user id, or undefined where the platform has none. */
export function effectiveUid(): number | undefined {
  return typeof process.geteuid === 'function' ? process.geteuid() : undefined;
}

/**
 * Enters the system layout: root only (anyone else gets SYSTEM_NEEDS_ROOT, exit 2), and a umask
 * of 022 so that every folder and file this run creates is readable by all users whatever the
 * caller's umask; files with a mode of their own (AppImages, state) still get it exactly.
 */
export function enterSystemMode(uid: number | undefined): void {
  if (uid !== 0) {
    throw new UsageError('SYSTEM_NEEDS_ROOT', '--system installs for every user and must run as root', {
      hint: 'run it with sudo, or drop --system (and APPIMAGE_KEEPER_SYSTEM) to manage your own apps',
    });
  }
  process.umask(SYSTEM_UMASK);
}

// Commands that put apps somewhere; a read-only command (list, doctor) never writes the marker.
const INSTALLING_COMMANDS = new Set(['init', 'add', 'adopt', 'update']);

/** Marker in the state folder: root has been told once about --system. */
export const ROOT_NOTICE_FILE = 'root-notice-shown';

/**
 * The one-time notice for root in the per-user layout (undefined when there is nothing to say):
 * the apps land in root's home, which no other account can run. Said on the first installing
 * command of that state folder, then remembered there.
 */
export async function rootWithoutSystemNotice(
  paths: Paths,
  uid: number | undefined,
  command: string,
): Promise<string | undefined> {
  if (uid !== 0 || paths.layout !== 'user' || !INSTALLING_COMMANDS.has(command)) return undefined;
  const marker = join(paths.stateDir, ROOT_NOTICE_FILE);
  if (
    await stat(marker).then(
      () => true,
      () => false,
    )
  )
    return undefined;
  // Best effort: failing to remember only means saying it again next time.
  await writeFileAtomic(marker, '', { root: paths.stateDir, mode: 0o600 }).catch(() => undefined);
  return (
    `running as root without --system: apps go to ${paths.home} and are visible to root only; ` +
    'use --system (or APPIMAGE_KEEPER_SYSTEM=1) to install them for every user'
  );
}

// doctor reports the same problem with its fix; init writes a fresh config; the rest read nothing.
const WITHOUT_CONFIG_GUARD = new Set([
  'doctor',
  'init',
  'version',
  'schema',
  'completion',
  'appimage-keeper',
]);

/**
 * A `--system` run executes what /etc/appimage-keeper says as root (recipes pick URLs and resolver
 * scripts): when anyone but root can change a file there, stop with SYSTEM_CONFIG_UNSAFE (exit 2)
 * and the chmod/chown that fixes it, instead of acting on it.
 */
export async function assertRootOnlyConfig(paths: Paths, command: string): Promise<void> {
  if (paths.layout !== 'system' || WITHOUT_CONFIG_GUARD.has(command)) return;
  const findings: Finding[] = [];
  await walkTree(paths.configDir, false, findings);
  if (findings.some(isUnsafe)) throw notRootOnlyError(findings);
}
