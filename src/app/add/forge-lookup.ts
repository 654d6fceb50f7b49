/** The latest release of a repository URL, fetched the way a forge recipe would fetch it. */
import { effectiveAppSettings } from '../../config/settings.js';
import type { ForgeStrategy } from '../../config/types.js';
import { KeeperError } from '../../core/errors.js';
import { routeRepository } from '../../sources/forge/detect.js';
import type { ForgeRelease } from '../../sources/forge/release.js';
import type { Run } from '../run.js';
import { fetchForgeRelease } from '../../sources/forge.js';

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
  const got = await fetchForgeRelease(strategy, settings, {
    ctx: run.ctx,
    store: run.store,
    memo: run.memo,
    signal: run.signal,
    appWindows: false,
  });
  if ('kind' in got) throw new KeeperError('RATE_LIMITED', got.message);
  if (got.fetched.kind === 'rate_limited') throw new KeeperError('RATE_LIMITED', got.fetched.message);
  return got.fetched.release;
}

/** True when `url` is on the hub or the lab (their public hosts or the configured ones). */
export function isHubOrLab(run: Run, url: string): boolean {
  try {
    return routeRepository(url, run.ws.global).kind !== 'self-hosted';
  } catch {
    return false;
  }
}

/**
 * The repository a URL points into, as a recipe writes it: hub and self-hosted `origin/owner/repo`,
 * lab the project path before `/-/`; undefined when the URL names no repository.
 */
export function canonicalRepository(run: Run, url: string): string | undefined {
  try {
    const route = routeRepository(url, run.ws.global);
    const origin = new URL(url).origin;
    if (route.kind === 'lab') return `${origin}/${route.path}`;
    return `${origin}/${route.owner}/${route.repo}`;
  } catch {
    return undefined;
  }
}
