/**
 * The lab (GitLab REST v4): `{lab_api}/projects/{url-encoded path}/releases/permalink/latest`,
 * reading `assets.links` and preferring `direct_asset_url`. Nested groups are part of the path.
 */
import { labArchived } from './archived.js';
import * as z from 'zod';
import type { AppSettings, ForgeStrategy } from '../../config/types.js';
import type { ForgeSource } from '../source.js';
import type { ResolveDeps } from '../types.js';
import { FORGE_CAPS, forgeBinding, type ForgeTarget } from './forge-source.js';
import { fetchMetadata } from './metadata.js';
import type { ReleaseFetch } from './release-fetch.js';
import { parseWith } from './release-fetch.js';
import type { ForgeRelease } from './release.js';
import { hostOf, invalidRepository, type RouteSettings } from './repository-url.js';

/** Public lab API used when `lab_release_api_url` is not set. */
export const DEFAULT_LAB_API = 'https://gitlab.com/api/v4';

const LabLink = z.object({
  id: z.union([z.number(), z.string()]).optional(),
  name: z.string(),
  url: z.string(),
  direct_asset_url: z.string().nullish(),
});

const LabRelease = z.object({
  tag_name: z.string(),
  assets: z.object({ links: z.array(LabLink) }),
  released_at: z.string().nullish(),
  _links: z.object({ self: z.string().optional() }).optional(),
});

/** A lab project and the API base serving it. */
export interface LabProject {
  apiBase: string;
  /** `group/sub/project`. */
  path: string;
}

/** The lab API base: the override, gitlab.com's, or `/api/v4` on a self-managed web host. */
export function labApiBase(settings: RouteSettings, repositoryUrl: URL): string {
  if (settings.lab_release_api_url) return settings.lab_release_api_url.replace(/\/+$/, '');
  if (repositoryUrl.host === 'gitlab.com') return DEFAULT_LAB_API;
  return `${repositoryUrl.origin}/api/v4`;
}

/** The permalink-latest URL of a project, or `releases/{tag}` when the recipe follows one tag. */
export function labReleaseUrl(project: LabProject, tag?: string): string {
  const root = `${project.apiBase}/projects/${encodeURIComponent(project.path)}/releases`;
  return tag === undefined ? `${root}/permalink/latest` : `${root}/${encodeURIComponent(tag)}`;
}

/**
 * Fetches the latest lab release, or the one under `strategy.tag`. The lab has no pre-release
 * flag, so `prerelease` changes nothing.
 */
export async function fetchLabRelease(
  project: LabProject,
  strategy: ForgeStrategy,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<ReleaseFetch> {
  const url = labReleaseUrl(project, strategy.tag);
  const result = await fetchMetadata(
    {
      url,
      headers: { accept: 'application/json' },
      conditional: true,
      what:
        strategy.tag === undefined
          ? `latest release of ${project.path}`
          : `release ${strategy.tag} of ${project.path}`,
    },
    settings,
    deps,
  );
  if (result.kind === 'rate_limited') return result;
  const release = parseWith(LabRelease, result.body, url);
  const forgeRelease: ForgeRelease = {
    tag: release.tag_name,
    releaseUrl: release._links?.self,
    publishedAt: release.released_at ?? undefined,
    assets: release.assets.links.map((link) => ({
      name: link.name,
      url: link.direct_asset_url || link.url,
      id: link.id,
    })),
  };
  return { kind: 'ok', release: forgeRelease, notModified: result.notModified, requests: result.requests };
}

/** The lab as a source: GitLab releases (gitlab.com or a self-managed instance). */
export const lab = {
  caps: FORGE_CAPS,
  ownsHost: (host, settings) => host === 'gitlab.com' || host === hostOf(settings.lab_release_web_url),
  route: (repository, settings) => {
    // Everything before GitLab's `/-/` separator is the (possibly nested) project path.
    const dash = repository.segments.indexOf('-');
    const path = (dash === -1 ? repository.segments : repository.segments.slice(0, dash)).join('/');
    if (!path.includes('/'))
      throw invalidRepository(repository.text, 'expected https://<host>/<group>[/<subgroup>...]/<project>');
    return { apiBase: labApiBase(settings, repository.url), path };
  },
  canonicalUrl: (route, repository) => `${repository.url.origin}/${route.path}`,
  bind: ({ route, strategy }: ForgeTarget<LabProject>, settings: AppSettings) =>
    forgeBinding(
      strategy,
      (deps) => fetchLabRelease(route, strategy, settings, deps),
      (deps) => labArchived(route, settings, deps),
    ),
} satisfies ForgeSource<LabProject>;
