import {
  escapeFieldCodes,
  getExec,
  getGroup,
  getRaw,
  MAIN_GROUP,
  removeKey,
  setExec,
  setString,
  type DesktopEntry,
  type DesktopGroup,
} from '../appimage/desktop-entry.js';
import { KeeperError } from '../core/errors.js';
import { OUR_MARK_KEY } from './desktop-names.js';

/** How the installed entry must launch the app and which icon it shows. */
export interface RewriteOptions {
  appName: string;
  execPath: string;
  execArgs: string[];
  env: Record<string, string>;
  /** Installed icon name; undefined keeps the upstream `Icon=` values. */
  iconName: string | undefined;
}

const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Splits a command into leading `env NAME=value` assignments, the program and its arguments, so
 * upstream environment settings survive when the program is replaced.
 */
function splitEnv(args: string[]): { env: [string, string][]; rest: string[] } {
  if (args[0] !== 'env') return { env: [], rest: args.slice(1) };
  const env: [string, string][] = [];
  let i = 1;
  for (; i < args.length; i++) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(args[i] ?? '');
    if (!m?.[1]) break;
    env.push([m[1], m[2] ?? '']);
  }
  return { env, rest: args.slice(i + 1) };
}

/** A lone field code (`%U`, `%f`, ...): the launcher replaces it with files or URLs. */
const FIELD_CODE_RE = /^%[fFuUdDnNickvm]$/;

/**
 * Builds the new Exec arguments: `[env K=V ...] <execPath> <upstream args> <execArgs> <field codes>`.
 * Our arguments go before the first field code, so `--no-sandbox %U` opens files as the app expects
 * (many apps stop reading options at the first file).
 */
export function rewriteExec(upstream: string[] | undefined, opts: RewriteOptions): string[] {
  const { env: upstreamEnv, rest } = splitEnv(upstream ?? []);
  const env = new Map<string, string>(upstreamEnv);
  for (const [name, value] of Object.entries(opts.env)) {
    if (!ENV_NAME_RE.test(name)) {
      throw new KeeperError(
        'DESKTOP_ENV_INVALID',
        `invalid environment variable name ${JSON.stringify(name)}`,
      );
    }
    env.set(name, escapeFieldCodes(value));
  }
  const program = escapeFieldCodes(opts.execPath);
  const extra = opts.execArgs.map(escapeFieldCodes);
  const firstCode = rest.findIndex((a) => FIELD_CODE_RE.test(a));
  const at = firstCode === -1 ? rest.length : firstCode;
  const command = [program, ...rest.slice(0, at), ...extra, ...rest.slice(at)];
  return env.size === 0 ? command : ['env', ...[...env].map(([k, v]) => `${k}=${v}`), ...command];
}

function rewriteGroup(group: DesktopGroup, opts: RewriteOptions, main: boolean): void {
  // A localized Exec (`Exec[de]=`) would launch something else for that locale: none survives.
  removeKey(group, 'Exec', { onlyLocales: true });
  removeKey(group, 'TryExec', { onlyLocales: true });
  const exec = getExec(group);
  if (exec !== undefined || main) setExec(group, rewriteExec(exec, opts));
  if (main || getExec(group, 'TryExec') !== undefined) setString(group, 'TryExec', opts.execPath);
  const upstreamIcon = getRaw(group, 'Icon');
  if (!opts.iconName && upstreamIcon?.includes('/')) {
    // Without an installed icon, a path from the image would name a file on the host (or nothing).
    removeKey(group, 'Icon', { allLocales: true });
  }
  if (opts.iconName && (main || upstreamIcon !== undefined)) {
    // Localized icons name files we do not install; the one we install serves every locale.
    removeKey(group, 'Icon', { onlyLocales: true });
    setString(group, 'Icon', opts.iconName);
  }
}

/**
 * Rewrites an AppImage's desktop entry for installation: every Exec/TryExec of every group (main,
 * `[Desktop Action]` and extension groups) points at execPath (arguments and field codes kept,
 * execArgs added before the field codes, env wrapped with `env`) and localized variants of both are
 * dropped, Icon names our installed icon, D-Bus activation is dropped (the AppImage does not install
 * a D-Bus service, so activation would fail), and our mark is added.
 */
export function rewriteDesktopEntry(entry: DesktopEntry, opts: RewriteOptions): DesktopEntry {
  const main = getGroup(entry, MAIN_GROUP);
  if (!main) throw new KeeperError('DESKTOP_ENTRY_INVALID', 'no [Desktop Entry] group');
  for (const group of entry.groups) rewriteGroup(group, opts, group === main);
  removeKey(main, 'DBusActivatable');
  setString(main, OUR_MARK_KEY, opts.appName);
  return entry;
}
