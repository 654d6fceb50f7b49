/**
 * Entry point of the resolvers: one app's settings in, a Resolution or a rate-limit window out.
 * Rate-limit windows are kept by the requests themselves (src/sources/forge/metadata.ts, direct.ts), per
 * app and URL.
 */
import type { AppSettings } from '../config/types.js';
import { resolveDirect } from './direct.js';
import { resolveForge } from './forge.js';
import { resolveScript } from './script.js';
import type { ResolveDeps, ResolveOutcome } from './types.js';

/** Resolves the latest release of one app; throws KeeperError for failures. */
export function resolveApp(settings: AppSettings, deps: ResolveDeps): Promise<ResolveOutcome> {
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
