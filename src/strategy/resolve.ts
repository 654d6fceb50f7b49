/**
 * Entry point of the resolvers: one app's settings in, a Resolution or a rate-limit window out.
 * The per-app window lives here; per-host windows live with the requests that open them.
 */
import type { AppSettings } from '../config/types.js';
import { routeRepository } from '../forge/detect.js';
import { appKey, openWindow, recordWindow } from '../forge/rate-limit.js';
import { resolveDirect } from './direct.js';
import { resolveForge } from './forge.js';
import { resolveScript } from './script.js';
import type { ResolveDeps, ResolveOutcome } from './types.js';

/** Resolves the latest release of one app; throws KeeperError for failures. */
export async function resolveApp(settings: AppSettings, deps: ResolveDeps): Promise<ResolveOutcome> {
  const key = appKey(settings.name);
  const window = openWindow(deps.store, key, deps.ctx.now());
  if (window && settings.respect_rate_limits) {
    return {
      kind: 'rate_limited',
      retryAt: new Date(window.until),
      host: limitedHost(settings),
      message: window.message,
    };
  }
  const outcome = await byStrategy(settings, deps);
  if (outcome.kind === 'rate_limited') {
    recordWindow(deps.store, key, { retryAt: outcome.retryAt, message: outcome.message });
  } else {
    deps.store.clearRateLimit(key);
  }
  return outcome;
}

function byStrategy(settings: AppSettings, deps: ResolveDeps): Promise<ResolveOutcome> {
  const strategy = settings.strategy;
  switch (strategy.strategy) {
    case 'forge':
      return resolveForge(strategy, settings, deps);
    case 'direct':
      return resolveDirect(strategy, settings, deps);
    case 'script':
      return resolveScript(strategy, settings, deps);
  }
}

/** The host an app's requests go to first, for reporting a stored app window (and `info`). */
export function limitedHost(settings: AppSettings): string {
  const strategy = settings.strategy;
  try {
    if (strategy.strategy === 'direct') return new URL(strategy.url).host;
    if (strategy.strategy === 'forge') {
      const route = routeRepository(strategy.repository, settings);
      return new URL(route.kind === 'self-hosted' ? route.origin : route.apiBase).host;
    }
  } catch {
    // an unusable URL is reported when the window closes and the app resolves again
  }
  return settings.name;
}
