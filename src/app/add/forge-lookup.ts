/** The latest release of a repository URL, fetched the way a forge recipe would fetch it. */
import { effectiveAppSettings } from '../../config/settings.js';
import type { ForgeStrategy } from '../../config/types.js';
import { KeeperError } from '../../core/errors.js';
import { canonicalRepository as routedRepository, knownByHost } from '../../sources/forges.js';
import type { ForgeRelease } from '../../sources/forge/release.js';
import { forgeSourceFor } from '../../sources/index.js';
import type { Run } from '../run.js';

// The forge binding of `repository` with the workspace's forge settings (token, API bases): no
// recipe and no app, labelled with the repository (events name it), no per-app rate-limit window.
function bindingOf(run: Run, repository: string) {
  const strategy: ForgeStrategy = { strategy: 'forge', repository, asset_match: '*' };
  const settings = effectiveAppSettings({
    global: run.ws.global,
    recipe: { name: repository, strategy },
    recipeFile: run.ws.paths.appsDir,
    recipeDir: run.ws.paths.appsDir,
    env: run.ctx.env,
    secretsToken: run.ws.secrets.hubToken,
  });
  const deps = { ctx: run.ctx, store: run.store, memo: run.memo, signal: run.signal, appWindows: false };
  return { source: forgeSourceFor(strategy, settings), deps };
}

/** Fetches the latest release of `repository` with the workspace's forge settings (token, API bases). */
export async function latestRelease(run: Run, repository: string): Promise<ForgeRelease> {
  const { source, deps } = bindingOf(run, repository);
  const fetched = await source.fetchRelease(deps);
  if (fetched.kind === 'rate_limited') throw new KeeperError('RATE_LIMITED', fetched.message);
  return fetched.release;
}

/** Whether the owner archived `repository` (one request); undefined when a rate limit hid it. */
export async function repositoryArchived(run: Run, repository: string): Promise<boolean | undefined> {
  const { source, deps } = bindingOf(run, repository);
  return source.fetchArchived(deps);
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
