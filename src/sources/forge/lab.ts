/**
 * The lab (GitLab REST v4): `{lab_api}/projects/{url-encoded path}/releases/permalink/latest`,
 * reading `assets.links` and preferring `direct_asset_url`. Nested groups are part of the path.
 */
import { labArchived } from './archived.js';
import * as z from 'zod';
import type { AppSettings, ForgeStrategy } from '../../config/types.js';
import type { ForgeBinding, Source } from '../source.js';
import type { ResolveDeps } from '../types.js';
import { FORGE_CAPS, forgeBinding, type ForgeTarget } from './forge-source.js';
import { fetchMetadata } from './metadata.js';
import type { ReleaseFetch } from './release-fetch.js';
import { parseWith } from './release-fetch.js';
import type { ForgeRelease } from './release.js';

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
  kind: 'lab',
  caps: FORGE_CAPS,
  bind: ({ route, strategy }: ForgeTarget<LabProject>, settings: AppSettings) =>
    forgeBinding(
      strategy,
      (deps) => fetchLabRelease(route, strategy, settings, deps),
      (deps) => labArchived(route, settings, deps),
    ),
} satisfies Source<ForgeTarget<LabProject>, ForgeBinding>;
