/**
 * Directories that belong to one Node version of a version manager (nvm, fnm, volta, asdf, n, mise,
 * nodenv, ...): switching or removing that version makes a path inside them disappear, so a timer
 * must not point there. Shim directories (`~/.volta/bin`, `~/.asdf/shims`, mise's `shims`) are
 * stable and do not count.
 */
import { isAbsolute, join, resolve, sep } from 'node:path';

// Each pattern matches a whole directory level of a normalized absolute path.
const PATTERNS: { manager: string; re: RegExp }[] = [
  { manager: 'nvm', re: /\/\.?nvm\/versions\/(node|io\.js)\/[^/]+(\/|$)/ },
  { manager: 'fnm', re: /\/\.?fnm\/node-versions\/[^/]+(\/|$)/ },
  { manager: 'fnm', re: /\/fnm_multishells\/[^/]+(\/|$)/ },
  { manager: 'volta', re: /\/\.?volta\/tools\/image\// },
  { manager: 'asdf', re: /\/\.?asdf\/installs\/node(js)?\/[^/]+(\/|$)/ },
  { manager: 'n', re: /\/n\/versions\/node\/[^/]+(\/|$)/ },
  { manager: 'mise', re: /\/(mise|rtx)\/installs\/node(js)?\/[^/]+(\/|$)/ },
  { manager: 'nodenv', re: /\/\.?nodenv\/versions\/[^/]+(\/|$)/ },
  { manager: 'nvs', re: /\/\.?nvs\/node\/[^/]+(\/|$)/ },
  { manager: 'nodebrew', re: /\/\.?nodebrew\/node\/[^/]+(\/|$)/ },
  { manager: 'pnpm', re: /\/pnpm\/nodejs\/[^/]+(\/|$)/ },
  { manager: 'Homebrew', re: /\/Cellar\/node(@[\d.]+)?\/[^/]+(\/|$)/ },
];

// Managers installed somewhere custom say where through their variables.
const ENV_ROOTS: { manager: string; variable: string; sub: string }[] = [
  { manager: 'nvm', variable: 'NVM_DIR', sub: 'versions' },
  { manager: 'fnm', variable: 'FNM_DIR', sub: 'node-versions' },
  { manager: 'fnm', variable: 'FNM_MULTISHELL_PATH', sub: '' },
  { manager: 'volta', variable: 'VOLTA_HOME', sub: join('tools', 'image') },
  { manager: 'asdf', variable: 'ASDF_DATA_DIR', sub: 'installs' },
  { manager: 'n', variable: 'N_PREFIX', sub: join('n', 'versions') },
  { manager: 'nodenv', variable: 'NODENV_ROOT', sub: 'versions' },
];

function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** The version manager whose per-version directory holds `path`, or undefined for a stable path. */
export function versionManagerOf(path: string, env: NodeJS.ProcessEnv): string | undefined {
  const p = resolve(path);
  for (const { manager, re } of PATTERNS) if (re.test(p)) return manager;
  for (const { manager, variable, sub } of ENV_ROOTS) {
    const root = env[variable];
    if (root && isAbsolute(root) && within(p, resolve(root, sub))) return manager;
  }
  return undefined;
}

/** The absolute, stable, de-duplicated directories of a `PATH` value, in order. */
export function stablePathDirs(pathValue: string | undefined, env: NodeJS.ProcessEnv): string[] {
  const dirs = (pathValue ?? '')
    .split(':')
    .filter((d) => d && isAbsolute(d) && !versionManagerOf(d, env))
    .map((d) => resolve(d));
  return [...new Set(dirs)];
}
