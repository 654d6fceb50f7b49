/**
 * Which forge serves a repository URL: the hub and lab by host (their public hosts or the hosts
 * of the `*_release_web_url` overrides), anything else by asking `/swagger.v1.json` whether it is
 * a Gitea or Forgejo. The answer for an origin is kept in the store, so it is asked only once.
 */
import * as z from 'zod';
import type { AppSettings } from '../../config/types.js';
import { KeeperError } from '../../core/errors.js';
import type { DetectedForgeKind, ResolveDeps } from '../types.js';
import type { HubRepo } from './hub.js';
import type { LabProject } from './lab.js';
import type { GiteaRepo } from './gitea.js';
import { fetchMetadata } from './metadata.js';
import { hubApiBase } from './token.js';

/** Where a repository's releases come from, before any network request. */
export type ForgeRoute =
  ({ kind: 'hub' } & HubRepo) | ({ kind: 'lab' } & LabProject) | ({ kind: 'self-hosted' } & GiteaRepo);

/** Public lab API used when `lab_release_api_url` is not set. */
export const DEFAULT_LAB_API = 'https://gitlab.com/api/v4';

type RouteSettings = Pick<
  AppSettings,
  'hub_release_api_url' | 'hub_release_web_url' | 'lab_release_api_url' | 'lab_release_web_url'
>;

/** Maps a repository URL to its forge route; throws FORGE_REPOSITORY_INVALID for unusable URLs. */
export function routeRepository(repository: string, settings: RouteSettings): ForgeRoute {
  const url = parseRepositoryUrl(repository);
  const segments = url.pathname
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s));
  const last = segments.length - 1;
  if (last >= 0) segments[last] = (segments[last] ?? '').replace(/\.git$/, '');

  if (url.host === 'github.com' || url.host === hostOf(settings.hub_release_web_url)) {
    const [owner, repo] = twoSegments(segments, repository);
    return { kind: 'hub', apiBase: hubApiBase(settings), owner, repo };
  }
  if (url.host === 'gitlab.com' || url.host === hostOf(settings.lab_release_web_url)) {
    // Everything before GitLab's `/-/` separator is the (possibly nested) project path.
    const dash = segments.indexOf('-');
    const path = (dash === -1 ? segments : segments.slice(0, dash)).join('/');
    if (!path.includes('/'))
      throw invalid(repository, 'expected https://<host>/<group>[/<subgroup>...]/<project>');
    return { kind: 'lab', apiBase: labApiBase(settings, url), path };
  }
  const [owner, repo] = twoSegments(segments, repository);
  return { kind: 'self-hosted', origin: url.origin, owner, repo };
}

/** True when `url` is on the hub or the lab (their public hosts or the configured ones). */
export function knownByHost(url: string, settings: RouteSettings): boolean {
  try {
    return routeRepository(url, settings).kind !== 'self-hosted';
  } catch {
    return false;
  }
}

/**
 * The repository a URL points into, as a recipe writes it: hub and self-hosted `origin/owner/repo`,
 * lab the project path before `/-/`; undefined when the URL names no repository.
 */
export function canonicalRepository(url: string, settings: RouteSettings): string | undefined {
  try {
    const route = routeRepository(url, settings);
    const origin = new URL(url).origin;
    if (route.kind === 'lab') return `${origin}/${route.path}`;
    return `${origin}/${route.owner}/${route.repo}`;
  } catch {
    return undefined;
  }
}

/** The lab API base: the override, gitlab.com's, or `/api/v4` on a self-managed web host. */
export function labApiBase(settings: RouteSettings, repositoryUrl: URL): string {
  if (settings.lab_release_api_url) return settings.lab_release_api_url.replace(/\/+$/, '');
  if (repositoryUrl.host === 'gitlab.com') return DEFAULT_LAB_API;
  return `${repositoryUrl.origin}/api/v4`;
}

const NOT_A_FORGE = new Set(['FORGE_NOT_FOUND', 'FORGE_HTTP_ERROR', 'FORGE_FORBIDDEN', 'HTTP_BAD_JSON']);

const Swagger = z.object({ info: z.object({ title: z.string() }) });

/** Result of asking a host what it is. */
export type DetectResult =
  | { kind: 'ok'; forge: DetectedForgeKind; requests: number }
  | { kind: 'rate_limited'; retryAt: Date; host: string; message: string; requests: number };

/** Identifies a self-hosted forge through `/swagger.v1.json`, using and filling the store's cache. */
export async function detectSelfHosted(
  origin: string,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<DetectResult> {
  const known = deps.store.getForgeKind(origin);
  if (known) return { kind: 'ok', forge: known, requests: 0 };
  const url = `${origin}/swagger.v1.json`;
  let result;
  try {
    result = await fetchMetadata(
      {
        url,
        headers: { accept: 'application/json' },
        conditional: false,
        what: `forge detection for ${origin}`,
      },
      settings,
      deps,
    );
  } catch (err) {
    // A host that answers but not like a Gitea/Forgejo is unknown; an unreachable one stays a network error.
    if (err instanceof KeeperError && NOT_A_FORGE.has(err.code)) throw unknownForge(origin, err.message, err);
    throw err;
  }
  if (result.kind === 'rate_limited') return result;
  const parsed = Swagger.safeParse(result.body);
  const title = parsed.success ? parsed.data.info.title : undefined;
  const forge = title === 'Gitea API' ? 'gitea' : title === 'Forgejo API' ? 'forgejo' : undefined;
  if (!forge) {
    throw unknownForge(origin, title ? `${url} describes "${title}"` : `${url} has no info.title`);
  }
  deps.store.setForgeKind(origin, forge);
  return { kind: 'ok', forge, requests: result.requests };
}

function unknownForge(origin: string, reason: string, cause?: unknown): KeeperError {
  return new KeeperError('FORGE_UNKNOWN', `cannot tell which forge ${origin} runs: ${reason}`, {
    hint:
      'supported: github.com and gitlab.com (or the hosts of hub_release_web_url / lab_release_web_url), ' +
      'and Gitea or Forgejo instances; otherwise use the direct or script strategy',
    cause,
  });
}

function parseRepositoryUrl(repository: string): URL {
  let url: URL;
  try {
    url = new URL(repository);
  } catch (err) {
    throw invalid(repository, 'not a URL', err);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid(repository, 'must be http(s)');
  return url;
}

function twoSegments(segments: string[], repository: string): [string, string] {
  const [owner, repo] = segments;
  if (!owner || !repo) throw invalid(repository, 'expected https://<host>/<owner>/<repo>');
  return [owner, repo];
}

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

function invalid(repository: string, why: string, cause?: unknown): KeeperError {
  return new KeeperError('FORGE_REPOSITORY_INVALID', `repository "${repository}": ${why}`, { cause });
}
