import { stat } from 'node:fs/promises';
import type { AppSettings } from '../config/types.js';
import { toKeeperError, type KeeperError } from '../core/errors.js';
import { sourceFor, type Resolution } from '../sources/index.js';
import { adoptedFileMatches } from './adopted-identity.js';
import { releaseGuard } from './release-guards.js';
import type { Run } from './run.js';
import { countOf } from '../core/plural.js';

/** Result of asking the strategy for the latest version and comparing it with what is installed. */
export type ResolveStep =
  | { kind: 'resolved'; resolution: Resolution; needsUpdate: boolean; reason: string }
  | { kind: 'rate_limited'; retryAt: Date; message: string }
  | { kind: 'failed'; error: KeeperError };

/**
 * Resolves one app and decides whether it needs an update: the remote identity differs from the
 * installed one, or the installed file is missing. A release the guards refuse (a proxy downgrade,
 * a replaced asset unless `force`) fails here, before anything is downloaded. `ignoreWindows` sends
 * the requests even while a rate-limit window is open.
 */
export async function resolveStep(
  settings: AppSettings,
  run: Run,
  opts: { force?: boolean; ignoreWindows?: boolean } = {},
): Promise<ResolveStep> {
  const appState = run.store.app(settings.name);
  const installed = appState?.installed;
  try {
    const source = sourceFor(settings);
    const outcome = await run.resolveLimiter(source.limiterKey, () =>
      source.resolve({
        ctx: run.ctx,
        store: run.store,
        installedVersion: installed?.version,
        memo: run.memo,
        signal: run.signal,
        force: opts.ignoreWindows === true,
      }),
    );
    if (outcome.kind === 'rate_limited') {
      return { kind: 'rate_limited', retryAt: outcome.retryAt, message: outcome.message };
    }
    const resolution = outcome.resolution;
    run.ctx.emit({
      type: 'info',
      app: settings.name,
      message: `latest ${resolution.version} (${resolution.assetName}); ${countOf(outcome.requests, 'request')}${outcome.notModified ? ', not modified since the last run' : ''}${resolution.viaProxy ? `, via proxy ${resolution.viaProxy}` : ''}`,
    });
    const refused = releaseGuard(settings, resolution, appState, opts.force === true, source);
    if (refused) return { kind: 'failed', error: refused };
    if (!installed) return { kind: 'resolved', resolution, needsUpdate: true, reason: 'not installed' };
    const present = await stat(installed.file).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!present)
      return { kind: 'resolved', resolution, needsUpdate: true, reason: 'installed file is missing' };
    if (adoptedFileMatches(installed, resolution)) {
      return {
        kind: 'resolved',
        resolution,
        needsUpdate: false,
        reason: 'up to date (the adopted file is the release asset)',
      };
    }
    if (resolution.identity !== installed.identity) {
      return { kind: 'resolved', resolution, needsUpdate: true, reason: 'new version' };
    }
    return { kind: 'resolved', resolution, needsUpdate: false, reason: 'up to date' };
  } catch (err) {
    return { kind: 'failed', error: toKeeperError(err) };
  }
}
