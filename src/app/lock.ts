/**
 * `lock`: resolves the selected apps as `check` does (same requests, holds and cooldown) and pins
 * each to its release's exact bytes. The SHA-256 comes from the forge's digest, the release's
 * checksum sidecar, or this machine's install of that very release; `lock` never downloads an
 * asset to hash it (docs/decisions.md): the bytes a lock pins are bytes someone verified.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { AppSettings } from '../config/types.js';
import type { AppEntry } from '../config/workspace.js';
import { lockFilePath, renderLockFile, type LockEntry, type LockFile } from '../config/lock-file.js';
import { writeFileAtomic } from '../core/atomic-files.js';
import { KeeperError, toKeeperError } from '../core/errors.js';
import type { Resolution } from '../sources/index.js';
import type { AppState } from '../state/types.js';
import { AppClock } from './app-clock.js';
import { expectedChecksum } from './checksum.js';
import { cooldownStep } from './cooldown-step.js';
import { errorInfo } from './error-info.js';
import { mapPool } from './pool.js';
import { recordFailure, recordSeen } from './record.js';
import { resolveStep } from './resolve-step.js';
import { LIMITS, type Run } from './run.js';
import { compareNames } from '../core/compare-names.js';

/** What `lock` did for one app. */
export interface LockOutcome {
  name: string;
  /** locked: new or changed entry; unchanged; kept: the previous entry stays (held, deferred, failed); skipped; dropped: no recipe. */
  status: 'locked' | 'unchanged' | 'kept' | 'skipped' | 'dropped' | 'deferred' | 'failed';
  version: string | null;
  reason?: string | undefined;
  eligible_at?: string | undefined;
  error?: ReturnType<typeof errorInfo> | undefined;
}

/** The new lock and what happened to each app. */
export interface LockResult {
  lock: LockFile;
  outcomes: LockOutcome[];
}

/**
 * Builds the new lock from `previous`: the selected apps are resolved again; every other entry is
 * kept, except, when no app was named, entries whose recipe is gone.
 */
export async function lockApps(
  run: Run,
  entries: readonly AppEntry[],
  previous: LockFile | undefined,
  opts: { named: readonly string[]; recipeNames: readonly string[] },
): Promise<LockResult> {
  const apps: Record<string, LockEntry> = { ...previous?.apps };
  const outcomes: LockOutcome[] = [];
  if (opts.named.length === 0) {
    for (const name of Object.keys(apps)) {
      if (opts.recipeNames.includes(name)) continue;
      delete apps[name];
      outcomes.push({ name, status: 'dropped', version: null, reason: 'no recipe; entry removed' });
    }
  }
  const results = await mapPool(entries, LIMITS.resolveTotal, (entry) =>
    lockOne(run, entry, apps[entry.name]),
  );
  for (const [i, r] of results.entries()) {
    const name = entries[i]?.name;
    if (name === undefined) continue;
    if (r.entry) apps[name] = r.entry;
    outcomes.push(r.outcome);
  }
  outcomes.sort((a, b) => compareNames(a.name, b.name));
  return { lock: { apps }, outcomes };
}

type OneResult = { entry?: LockEntry | undefined; outcome: LockOutcome };

async function lockOne(run: Run, entry: AppEntry, old: LockEntry | undefined): Promise<OneResult> {
  const kept = (
    status: LockOutcome['status'],
    reason: string,
    extra: Partial<LockOutcome> = {},
  ): OneResult => ({
    entry: old,
    outcome: {
      name: entry.name,
      status: old && status === 'skipped' ? 'kept' : status,
      version: old?.version ?? null,
      reason,
      ...extra,
    },
  });
  if (!entry.ok) return kept('failed', 'recipe is invalid', { error: errorInfo(entry.error) });
  const settings = entry.settings;
  const state = run.store.app(entry.name);
  if (settings.ignore) return kept('skipped', 'ignored');
  if (state?.removedAt) return kept('skipped', 'removed');
  if (state?.hold) {
    if (old) return kept('kept', 'held (rollback): the previous entry stays');
    const pinned = state.installed ? entryFromInstalled(settings, state) : undefined;
    if (!pinned) return kept('skipped', 'held and not installed');
    return {
      entry: pinned,
      outcome: {
        name: entry.name,
        status: 'locked',
        version: pinned.version,
        reason: 'held: the installed version',
      },
    };
  }
  const clock = new AppClock(run, settings);
  const step = await clock.phase((r) => resolveStep(settings, r));
  const now = run.ctx.now().toISOString();
  const strategy = settings.strategy.strategy;
  if (step.kind === 'rate_limited')
    return kept('failed', step.message, { error: { code: 'RATE_LIMITED', message: step.message } });
  if (step.kind === 'failed') {
    if (clock.expired) step.error = clock.timeoutError(step.error);
    recordFailure(run.store, entry.name, strategy, now, step.error);
    return kept('failed', step.error.message, { error: errorInfo(step.error) });
  }
  const r = step.resolution;
  recordSeen(run.store, entry.name, strategy, now, { version: r.version, identity: r.identity });
  // A release already in the lock went through the cooldown when it was locked.
  const deferral = old?.identity === r.identity ? undefined : cooldownStep(run, settings, r);
  if (deferral) {
    return kept('deferred', old ? `${deferral.reason}; the previous entry stays` : deferral.reason, {
      eligible_at: deferral.eligibleAt,
    });
  }
  try {
    const next = await entryFor(run, settings, state, r, old);
    const same = old !== undefined && JSON.stringify(ordered(old)) === JSON.stringify(ordered(next));
    return {
      entry: next,
      outcome: { name: entry.name, status: same ? 'unchanged' : 'locked', version: next.version },
    };
  } catch (err) {
    const e = toKeeperError(err);
    return kept('failed', e.message, { error: errorInfo(e) });
  }
}

/** The recipe's source as the lock names it: a repository, a URL, or the script's file name. */
function sourceText(settings: AppSettings): string {
  const s = settings.strategy;
  if (s.strategy === 'forge') return s.repository;
  if (s.strategy === 'direct') return s.url;
  return `script:${basename(s.script_path)}`;
}

const zipped = (assetName: string): boolean => assetName.toLowerCase().endsWith('.zip');

async function entryFor(
  run: Run,
  settings: AppSettings,
  state: AppState | undefined,
  r: Resolution,
  old: LockEntry | undefined,
): Promise<LockEntry> {
  const installed = state?.installed;
  // The installed record describes the asset only when it is this release and was not unzipped.
  const mine =
    installed && installed.identity === r.identity && installed.url === r.url && !zipped(r.assetName)
      ? installed
      : undefined;
  const reuse = old && old.identity === r.identity && old.url === r.url ? old : undefined;
  const sha256 =
    r.sha256?.toLowerCase() ??
    reuse?.sha256 ??
    (await expectedChecksum(run.ctx.http, r, run.signal, 'api')) ??
    mine?.sha256;
  if (!sha256 || !/^[0-9a-f]{64}$/.test(sha256)) {
    throw new KeeperError(
      'LOCK_DIGEST_UNKNOWN',
      `${r.version} (${r.assetName}) publishes no SHA-256 and is not installed here`,
      {
        hint: `install it on this machine first (\`appimage-keeper update ${settings.name}\`), then run \`lock\` again: the lock pins the bytes you tested`,
      },
    );
  }
  const size = r.size ?? mine?.size ?? reuse?.size;
  const verifiedKey =
    mine && state?.signature?.lastVerified?.version === mine.version
      ? state.signature.fingerprint
      : undefined;
  const signer = mine?.provenance?.build?.signerWorkflow;
  return {
    source: sourceText(settings),
    version: r.version,
    ...(settings.strategy.strategy === 'forge' ? { tag: r.version } : {}),
    identity: r.identity,
    asset: r.assetName,
    url: r.url,
    ...(size !== undefined ? { size } : {}),
    sha256,
    ...((verifiedKey ?? reuse?.signing_key) ? { signing_key: verifiedKey ?? reuse?.signing_key } : {}),
    ...((signer ?? reuse?.provenance_signer)
      ? { provenance_signer: signer ?? reuse?.provenance_signer }
      : {}),
  };
}

/** An entry for a held app from what is installed (its release is what the hold keeps). */
function entryFromInstalled(settings: AppSettings, state: AppState): LockEntry | undefined {
  const i = state.installed;
  if (!i || !/^[0-9a-f]{64}$/.test(i.sha256) || zipped(i.url) || !URL.canParse(i.url)) return undefined;
  const key = state.signature?.lastVerified?.version === i.version ? state.signature.fingerprint : undefined;
  const signer = i.provenance?.build?.signerWorkflow;
  return {
    source: sourceText(settings),
    version: i.version,
    ...(settings.strategy.strategy === 'forge' ? { tag: i.version } : {}),
    identity: i.identity,
    asset: basename(new URL(i.url).pathname),
    url: i.url,
    size: i.size,
    sha256: i.sha256,
    ...(key ? { signing_key: key } : {}),
    ...(signer ? { provenance_signer: signer } : {}),
  };
}

function ordered(e: LockEntry): [string, unknown][] {
  return Object.entries(e).sort(([a], [b]) => compareNames(a, b));
}

/** Writes the lock file when its text changed (no-follow, atomic); says whether it did. */
export async function saveLock(
  configDir: string,
  lock: LockFile,
): Promise<{ file: string; changed: boolean }> {
  const file = lockFilePath(configDir);
  const text = await renderLockFile(lock);
  const before = await readFile(file, 'utf8').catch(() => undefined);
  if (before === text) return { file, changed: false };
  await mkdir(configDir, { recursive: true });
  await writeFileAtomic(file, text, { root: configDir, mode: 0o644 });
  return { file, changed: true };
}
