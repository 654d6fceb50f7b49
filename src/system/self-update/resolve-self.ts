/**
 * The built-in recipe of the tool itself: a forge recipe on its own repository, resolved through
 * the same forge code as any app (routing, token, proxies and API overrides from config.yml).
 */
import { effectiveAppSettings } from '../../config/settings.js';
import type { AppSettings } from '../../config/types.js';
import type { Workspace } from '../../config/workspace.js';
import type { Context } from '../../context/context.js';
import { KeeperError } from '../../core/errors.js';
import { resolveApp } from '../../sources/resolve.js';
import { createMemoryResolverStore } from '../../sources/memory-store.js';
import type { ResolveDeps, Resolution } from '../../sources/types.js';
import { timeText } from '../../core/time-text.js';

/** Name under which the tool's own release is resolved and reported. */
export const SELF_NAME = 'appimage-keeper';

/** Effective settings of the built-in recipe for `repository`, matching assets with `glob`. */
export function selfSettings(ws: Workspace, ctx: Context, repository: string, glob: string): AppSettings {
  return effectiveAppSettings({
    global: ws.global,
    recipe: { name: SELF_NAME, strategy: { strategy: 'forge', repository, asset_match: glob } },
    recipeFile: '(built-in self-update recipe)',
    recipeDir: ws.paths.configDir,
    env: ctx.env,
    secretsToken: ws.secrets.hubToken,
  });
}

/** One resolver memo per self-update, so looking for two asset kinds costs one request. */
export interface SelfResolver {
  resolve(settings: AppSettings): Promise<Resolution>;
  /** The same context, store and memo, for the attestation lookup of the resolved asset. */
  deps: ResolveDeps;
}

/** Creates a resolver whose requests share one memo and an in-memory cache. */
export function createSelfResolver(ctx: Context, signal: AbortSignal): SelfResolver {
  const store = createMemoryResolverStore();
  const memo = new Map<string, Promise<unknown>>();
  const deps: ResolveDeps = { ctx, store, memo, signal };
  return {
    deps,
    async resolve(settings) {
      const outcome = await resolveApp(settings, deps);
      if (outcome.kind === 'rate_limited') {
        throw new KeeperError('SELF_UPDATE_RATE_LIMITED', `${outcome.host}: ${outcome.message}`, {
          hint: `try again after ${timeText(outcome.retryAt)}, or set a hub token`,
        });
      }
      return outcome.resolution;
    },
  };
}
