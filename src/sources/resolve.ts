/**
 * Entry point of the resolvers: one app's settings in, a Resolution or a rate-limit window out.
 * Rate-limit windows are kept by the requests themselves (src/sources/forge/metadata.ts, direct.ts), per
 * app and URL.
 */
import type { AppSettings } from '../config/types.js';
import { sourceFor } from './registry.js';
import type { ResolveDeps, ResolveOutcome } from './types.js';

/** Resolves the latest release of one app; throws (rejects with) KeeperError for failures. */
export async function resolveApp(settings: AppSettings, deps: ResolveDeps): Promise<ResolveOutcome> {
  return sourceFor(settings).resolve(deps);
}
