/** The forge strategy: route the repository to its forge, fetch the release, pick the asset. */
import type { AppSettings, ForgeStrategy } from '../config/types.js';
import { detectSelfHosted, routeRepository, type DetectResult } from './forge/detect.js';
import { fetchGiteaRelease } from './forge/gitea.js';
import { fetchHubRelease } from './forge/hub.js';
import { fetchLabRelease } from './forge/lab.js';
import type { ReleaseFetch } from './forge/release-fetch.js';
import { releaseToResolution } from './forge/release.js';
import type { ResolveDeps, ResolveOutcome } from './types.js';

/** Fetches the release a forge recipe follows (before any asset is chosen). */
export async function fetchForgeRelease(
  strategy: ForgeStrategy,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<
  { fetched: ReleaseFetch; detectRequests: number } | Extract<DetectResult, { kind: 'rate_limited' }>
> {
  const route = routeRepository(strategy.repository, settings);
  let fetched: ReleaseFetch;
  let detectRequests = 0;
  if (route.kind === 'hub') {
    fetched = await fetchHubRelease(route, strategy, settings, deps);
  } else if (route.kind === 'lab') {
    fetched = await fetchLabRelease(route, strategy, settings, deps);
  } else {
    const detected = await detectSelfHosted(route.origin, settings, deps);
    if (detected.kind === 'rate_limited') return detected;
    detectRequests = detected.requests;
    fetched = await fetchGiteaRelease(route, strategy, settings, deps);
  }
  return { fetched, detectRequests };
}

/** Resolves a forge recipe to its release asset. */
export async function resolveForge(
  strategy: ForgeStrategy,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<ResolveOutcome> {
  const got = await fetchForgeRelease(strategy, settings, deps);
  if ('kind' in got) return rateLimited(got);
  const { fetched, detectRequests } = got;
  if (fetched.kind === 'rate_limited') return rateLimited(fetched);
  return {
    kind: 'resolved',
    resolution: releaseToResolution(fetched.release, strategy, deps.ctx.arch),
    requests: detectRequests + fetched.requests,
    notModified: fetched.notModified,
  };
}

function rateLimited(r: { retryAt: Date; host: string; message: string }): ResolveOutcome {
  return { kind: 'rate_limited', retryAt: r.retryAt, host: r.host, message: r.message };
}
