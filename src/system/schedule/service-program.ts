/**
 * Chooses what the timer's service runs, so the unit outlives Node version managers (nvm, fnm,
 * volta, ...): the standalone executable itself; else the `appimage-keeper` on PATH that lives
 * outside any version's directory and answers `--version` with our version in the environment the
 * unit will have; else this process's node and script, with a warning saying why that is fragile.
 */
import { open, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute } from 'node:path';
import { VERSION } from '../../core/version.js';
import { findProgram, findPrograms } from '../find-program.js';
import { installKindOf, type ProcessFacts } from '../self-update/install-kind.js';
import { probeVersion } from './probe-version.js';
import { stablePathDirs, versionManagerOf } from './version-manager-dir.js';

/** The name the CLI is installed under. */
export const PROGRAM_NAME = 'appimage-keeper';

/**
 * The user manager's own PATH (systemd's default) for units that set none: what a binary launcher
 * and the node-and-script form run with.
 */
export const SYSTEMD_DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** What the service runs and why. */
export interface ServiceProgram {
  /** standalone: the single executable; path: a launcher found on PATH; node: node plus script. */
  kind: 'standalone' | 'path' | 'node';
  /** The program part of ExecStart (one element, or node and script). */
  argv: string[];
  /** PATH for the service's `Environment=`, set when the launcher is a script that looks up its interpreter. */
  unitPath: string | undefined;
  /** Why this choice may break later; empty when it will not. */
  warnings: string[];
  /** How to get a sturdier choice, when there are warnings. */
  hint: string | undefined;
}

/** A script's interpreter line (`#!...`), read from its first bytes; undefined for a binary. */
async function shebangOf(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    const buf = Buffer.alloc(256);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead).toString('latin1');
    if (!head.startsWith('#!')) return undefined;
    return head.slice(2).split('\n')[0]?.trim();
  } finally {
    await handle.close();
  }
}

/** `{ absolute }` for `#!/path/node`, `{ searched }` for `#!/usr/bin/env [-S] node ...`. */
function interpreterOf(shebang: string): { absolute?: string; searched?: string } {
  const [first = '', ...rest] = shebang.split(/\s+/);
  if (basename(first) !== 'env') return { absolute: first };
  const name = rest.find((w) => !w.startsWith('-') && !w.includes('='));
  return { searched: name };
}

/** The npm bundle's entry as a clone's build has it (`<clone>/dist/appimage-keeper.cjs`). */
function isBuiltEntry(file: string): boolean {
  return basename(dirname(file)) === 'dist' && /^appimage-keeper\.[cm]?js$/.test(basename(file));
}

type Candidate = { ok: true; program: ServiceProgram } | { ok: false; reason: string };

async function tryLauncher(launcher: string, env: NodeJS.ProcessEnv): Promise<Candidate> {
  const manager = versionManagerOf(launcher, env);
  if (manager)
    return { ok: false, reason: `${launcher} is inside ${manager}'s directory for one Node version` };
  const shebang = await shebangOf(launcher);
  const interpreter = shebang === undefined ? undefined : interpreterOf(shebang);
  const interpreterManager = interpreter?.absolute ? versionManagerOf(interpreter.absolute, env) : undefined;
  if (interpreter?.absolute && interpreterManager) {
    return {
      ok: false,
      reason: `${launcher} runs ${interpreter.absolute}, inside ${interpreterManager}'s directory for one Node version`,
    };
  }
  // A script may look up its interpreter (`env node`) or other programs: give the unit the PATH of
  // this shell without the version managers' per-version directories, and try it with exactly that.
  const unitPath = shebang === undefined ? undefined : stablePathDirs(env.PATH, env).join(':') || undefined;
  const probe = await probeVersion([launcher], { ...env, PATH: unitPath ?? SYSTEMD_DEFAULT_PATH });
  if (!probe.ok) {
    const node = interpreter?.searched
      ? ` (it needs ${interpreter.searched} on PATH outside version managers)`
      : '';
    return { ok: false, reason: `${launcher} --version failed${node}: ${probe.detail}` };
  }
  if (probe.version !== VERSION) {
    return { ok: false, reason: `${launcher} is version ${probe.version}, this is ${VERSION}` };
  }
  const warnings: string[] = [];
  const real = await realpath(launcher).catch(() => launcher);
  const realManager = versionManagerOf(real, env);
  if (realManager) {
    warnings.push(
      `${launcher} links to ${real}, inside ${realManager}'s directory for one Node version: removing that version breaks the timer`,
    );
  }
  // `npm install -g .` links the command to a clone's build: the clone must stay where it is.
  const linked =
    shebang === undefined ? undefined : installKindOf({ sea: false, execPath: '', script: real });
  if (linked?.kind === 'source' && isBuiltEntry(real))
    warnings.push(`${launcher} links to the clone in ${linked.dir}: moving or deleting it breaks the timer`);
  return {
    ok: true,
    program: {
      kind: 'path',
      argv: [launcher],
      unitPath,
      warnings,
      hint: warnings.length ? HINT_STANDALONE : undefined,
    },
  };
}

const HINT_STANDALONE =
  'install the standalone executable (it needs no Node.js; see docs/install.md) and run `appimage-keeper schedule install` with it';
const HINT_NPM_PREFIX =
  'or install with npm into a prefix outside the version manager (`npm install -g --prefix ~/.local <package>`, ~/.local/bin on PATH) and run `appimage-keeper schedule install` again';

/**
 * Picks the service's program for the running process (`facts`) and the installing shell's
 * environment (`env`, whose PATH is searched).
 */
export async function chooseServiceProgram(
  facts: ProcessFacts,
  env: NodeJS.ProcessEnv,
): Promise<ServiceProgram> {
  if (facts.sea) {
    return { kind: 'standalone', argv: [facts.execPath], unitPath: undefined, warnings: [], hint: undefined };
  }
  const skipped: string[] = [];
  for (const launcher of await findPrograms(PROGRAM_NAME, env)) {
    const c = await tryLauncher(launcher, env);
    if (c.ok) return c.program;
    skipped.push(c.reason);
  }
  const warnings: string[] = [];
  const manager = versionManagerOf(facts.execPath, env) ?? versionManagerOf(facts.script, env);
  if (manager) {
    warnings.push(
      `the timer runs ${facts.execPath} ${facts.script}, inside ${manager}'s directory for one Node version: switching or removing that Node version breaks the timer`,
    );
  }
  const install = installKindOf(facts);
  if (install.kind === 'source') {
    warnings.push(`the timer runs the clone in ${install.dir}: moving or deleting it breaks the timer`);
  }
  if (warnings.length === 0) {
    return {
      kind: 'node',
      argv: [facts.execPath, facts.script],
      unitPath: undefined,
      warnings,
      hint: undefined,
    };
  }
  if (skipped.length) warnings.push(`no stable ${PROGRAM_NAME} on PATH: ${skipped.slice(0, 3).join('; ')}`);
  else warnings.push(`no ${PROGRAM_NAME} on PATH`);
  const stableNode = await findProgram('node', { PATH: stablePathDirs(env.PATH, env).join(':') });
  return {
    kind: 'node',
    argv: [facts.execPath, facts.script],
    unitPath: undefined,
    warnings,
    hint: stableNode ? `${HINT_STANDALONE}, ${HINT_NPM_PREFIX}` : HINT_STANDALONE,
  };
}

/** True when `argv` is the node-plus-script form (`/path/node /path/script.mjs`). */
export function isNodeForm(argv: readonly string[]): boolean {
  return (
    argv.length >= 2 && /^(node|nodejs)(\d+)?$/.test(basename(argv[0] ?? '')) && isAbsolute(argv[1] ?? '')
  );
}
