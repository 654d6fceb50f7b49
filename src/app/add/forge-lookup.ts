/** The latest release of a repository URL, fetched the way a forge recipe would fetch it. */
import { effectiveAppSettings } from '../../config/settings.js';
import type { ForgeStrategy } from '../../config/types.js';
import { KeeperError } from '../../core/errors.js';
import { canonicalRepository as routedRepository, knownByHost } from '../../sources/forge/detect.js';
import type { ForgeRelease } from '../../sources/forge/release.js';
import { forgeSourceFor } from '../../sources/index.js';
import type { Run } from '../run.js';

/** Fetches the latest release of `repository` with the workspace's forge settings (token, API bases). */
export async function latestRelease(run: Run, repository: string): Promise<ForgeRelease> {
  const strategy: ForgeStrategy = { strategy: 'forge', repository, asset_match: '*' };
  // No recipe and no app: the workspace's forge settings, labelled with the repository (events
  // name it), and no per-app rate-limit window.
  const settings = effectiveAppSettings({
    global: run.ws.global,
    recipe: { name: repository, strategy },
    recipeFile: run.ws.paths.appsDir,
    recipeDir: run.ws.paths.appsDir,
    env: run.ctx.env,
    secretsToken: run.ws.secrets.hubToken,
  });
  const fetched = await forgeSourceFor(strategy, settings).fetchRelease({
    ctx: run.ctx,
    store: run.store,
    memo: run.memo,
    signal: run.signal,
    appWindows: false,
  });
  if (fetched.kind === 'rate_limited') throw new KeeperError('RATE_LIMITED', fetched.message);
  return fetched.release;
}

/** True when `url` is on the hub or the lab (their public hosts or the configured ones). */
export function isHubOrLab(run: Run, url: string): boolean {
  return knownByHost(url, run.ws.global);
}

/**
 * The repository a URL points into, as a recipe writes it: hub and self-hosted `origin/owner/repo`,
 * lab the project path before `/-/`; undefined when the URL names no repository.
 */
export function canonicalRepository(run: Run, url: string): string | undefined {
  return routedRepository(url, run.ws.global);
}
