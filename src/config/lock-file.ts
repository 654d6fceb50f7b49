/**
 * `appimage-keeper.lock`: the exact release each app is pinned to, shared between machines. It
 * comes from a repository the user pulled, so it is read as hostile input: a bounded regular file,
 * YAML, a strict zod schema, problems positioned as file:line:col. It is written with a fixed key
 * order and no timestamps, so an entry changes only when its release does.
 */
import { join } from 'node:path';
import type * as Yaml from 'yaml';
import * as z from 'zod';
import { ConfigError, ExitCode, KeeperError, type ConfigIssue } from '../core/errors.js';
import { readSmallFileSync } from '../core/small-file.js';
import { ValidatedCache } from './validated-cache.js';
import { parseYamlText, positionOf } from './yaml-file.js';

/** The lock file's name in the config dir. */
export const LOCK_FILE_NAME = 'appimage-keeper.lock';
/** A lock of 10 000 apps is well under this; anything larger is not one. */
export const MAX_LOCK_BYTES = 4 << 20;
const MAX_APPS = 10_000;

/** The lock file of a config dir. */
export function lockFilePath(configDir: string): string {
  return join(configDir, LOCK_FILE_NAME);
}

const short = z.string().min(1).max(1024);
const httpUrl = z
  .string()
  .max(4096)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
    } catch {
      return false;
    }
  }, 'must be an http(s) URL without credentials');

/** One app's pinned release. */
export const lockEntrySchema = z.strictObject({
  /** The recipe's repository (forge) or URL (direct, script: the script's name). */
  source: z.string().min(1).max(4096),
  version: short,
  /** forge: the release tag. */
  tag: short.optional(),
  /** What state compares (see Resolution.identity): kept so a later plain `update` agrees. */
  identity: z.string().min(1).max(8192),
  asset: short,
  url: httpUrl,
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits'),
  /** The embedded signature's key, when it verified on the machine that locked. */
  signing_key: z
    .string()
    .regex(/^[0-9A-F]{40}$/, 'must be a 40-digit upper-case fingerprint')
    .optional(),
  /** The build-provenance signer (certificate SAN), when it verified on the machine that locked. */
  provenance_signer: z.string().min(1).max(4096).optional(),
});

/** One app's pinned release. */
export type LockEntry = z.infer<typeof lockEntrySchema>;

const lockSchema = z.strictObject({
  lock_version: z.literal(1),
  apps: z
    .record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'is not an app name'), lockEntrySchema)
    .refine((apps) => Object.keys(apps).length <= MAX_APPS, `more than ${MAX_APPS} apps`),
});

/** A parsed lock file: entries by app name. */
export interface LockFile {
  apps: Record<string, LockEntry>;
}

/** The keys of an entry, in the order `lock` writes them. */
const ENTRY_KEYS = [
  'source',
  'version',
  'tag',
  'identity',
  'asset',
  'url',
  'size',
  'sha256',
  'signing_key',
  'provenance_signer',
] as const satisfies readonly (keyof LockEntry)[];

const HEADER =
  '# appimage-keeper lock file: written by `appimage-keeper lock`, installed by `update --locked`.\n' +
  '# Commit it with the recipes; every entry changes only when its release changes.\n';

/** The file's text: apps sorted by name, keys in a fixed order, nothing that changes by itself. */
export async function renderLockFile(lock: LockFile): Promise<string> {
  // A CommonJS package: bundled, its dynamic import has only the default export.
  const mod = (await import('yaml')) as typeof Yaml & { default?: typeof Yaml };
  const { stringify } = mod.default ?? mod;
  const apps: Record<string, Record<string, unknown>> = {};
  for (const name of Object.keys(lock.apps).sort()) {
    const entry = lock.apps[name];
    if (!entry) continue;
    const ordered: Record<string, unknown> = {};
    for (const key of ENTRY_KEYS) if (entry[key] !== undefined) ordered[key] = entry[key];
    apps[name] = ordered;
  }
  return HEADER + stringify({ lock_version: 1, apps }, { lineWidth: 0, minContentWidth: 0 });
}

/**
 * Reads the lock file; undefined when there is none. Anything else wrong is a positioned ConfigError.
 * With `cacheDir`, a lock validated before (same bytes, same tool) is taken from the validated
 * cache there, and a newly valid one goes into it.
 */
export async function readLockFile(file: string, cacheDir?: string): Promise<LockFile | undefined> {
  let read: ReturnType<typeof readSmallFileSync>;
  try {
    read = readSmallFileSync(file, MAX_LOCK_BYTES);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new KeeperError('LOCK_UNREADABLE', `cannot read ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (read.kind === 'not-regular') throw lockIssue(file, 'not a regular file');
  if (read.kind === 'too-large')
    throw lockIssue(file, `larger than ${MAX_LOCK_BYTES >> 20} MiB; not a lock file`);
  const cache = cacheDir === undefined ? undefined : ValidatedCache.open(cacheDir);
  const cached = cache?.get('lock', read.text);
  if (cached) return { apps: cached.apps as LockFile['apps'] };
  let y;
  try {
    y = await parseYamlText(file, read.text);
  } catch (err) {
    // A syntax error or an alias bomb: the same error as a schema problem.
    if (err instanceof ConfigError)
      throw new ConfigError(err.issues, { hint: LOCK_HINT, exitCode: ExitCode.usage });
    throw err;
  }
  const parsed = lockSchema.safeParse(y.data);
  if (parsed.success) {
    cache?.put('lock', read.text, parsed.data);
    await cache?.save();
    return { apps: parsed.data.apps };
  }
  const issues: ConfigIssue[] = parsed.error.issues.slice(0, 20).map((issue) => {
    const pos = positionOf(y, issue.path, { key: issue.code === 'unrecognized_keys' });
    const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
    return { file, line: pos.line, col: pos.col, message: `${where}${issue.message}` };
  });
  throw new ConfigError(issues, { hint: LOCK_HINT, exitCode: ExitCode.usage });
}

const LOCK_HINT = 'fix the lock file or write it again with `appimage-keeper lock`';

function lockIssue(file: string, message: string): ConfigError {
  return new ConfigError([{ file, line: 1, col: 1, message }], { exitCode: ExitCode.usage });
}
