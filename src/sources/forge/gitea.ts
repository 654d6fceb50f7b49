/** Gitea and Forgejo: `{origin}/api/v1/repos/{owner}/{repo}/releases/latest` (the list for pre-releases, `tags/{tag}` for a tag). */
import { giteaArchived } from './archived.js';
import * as z from 'zod';
import type { AppSettings, ForgeStrategy } from '../../config/types.js';
import type { ForgeSource } from '../source.js';
import type { ResolveDeps } from '../types.js';
import { detectSelfHosted } from './detect.js';
import { FORGE_CAPS, forgeBinding, type ForgeTarget } from './forge-source.js';
import { fetchMetadata } from './metadata.js';
import type { ReleaseFetch } from './release-fetch.js';
import { parseRestRelease, releaseChoice, releaseWhat, RestAsset, restRelease } from './release-schema.js';
import type { ReleaseChoice } from './release-schema.js';
import type { ForgeRelease } from './release.js';
import { ownerAndRepo } from './repository-url.js';

const GiteaAsset = RestAsset.extend({ created_at: z.string().nullish() });

const GiteaRelease = restRelease(GiteaAsset);

/** A repository on a self-hosted Gitea or Forgejo. */
export interface GiteaRepo {
  origin: string;
  owner: string;
  repo: string;
}

/** The release URL the strategy reads: latest, the list (pre-releases wanted), or `tags/{tag}`. */
export function giteaReleaseUrl(repo: GiteaRepo, choice: ReleaseChoice): string {
  const root = `${repo.origin}/api/v1/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}/releases`;
  if (choice.kind === 'tag') return `${root}/tags/${encodeURIComponent(choice.tag)}`;
  return choice.kind === 'list' ? `${root}?draft=false` : `${root}/latest`;
}

/** Fetches the release a forge recipe follows on a Gitea/Forgejo host. */
export async function fetchGiteaRelease(
  repo: GiteaRepo,
  strategy: ForgeStrategy,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<ReleaseFetch> {
  const choice = releaseChoice(strategy);
  const url = giteaReleaseUrl(repo, choice);
  const slug = `${repo.owner}/${repo.repo}`;
  const result = await fetchMetadata(
    {
      url,
      headers: { accept: 'application/json' },
      conditional: true,
      what: releaseWhat(choice, slug),
    },
    settings,
    deps,
  );
  if (result.kind === 'rate_limited') return result;
  const release = parseRestRelease(GiteaRelease, result.body, url, choice, slug);
  const forgeRelease: ForgeRelease = {
    tag: release.tag_name,
    releaseUrl: release.html_url,
    publishedAt: release.published_at ?? undefined,
    assets: release.assets.map((a) => ({
      name: a.name,
      url: a.browser_download_url,
      size: a.size,
      id: a.id,
      updatedAt: a.created_at ?? undefined,
    })),
  };
  return { kind: 'ok', release: forgeRelease, notModified: result.notModified, requests: result.requests };
}

/** Asks the host what it runs first (once per origin, kept in the store), then fetches the release. */
async function fetchSelfHostedRelease(
  repo: GiteaRepo,
  strategy: ForgeStrategy,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<ReleaseFetch> {
  const detected = await detectSelfHosted(repo.origin, settings, deps);
  if (detected.kind === 'rate_limited') return detected;
  const fetched = await fetchGiteaRelease(repo, strategy, settings, deps);
  return { ...fetched, requests: detected.requests + fetched.requests };
}

/**
 * Gitea and Forgejo as a source: it owns no host by name, so routing gives it every host no other
 * forge owns, and `/swagger.v1.json` confirms it when the release is fetched.
 */
export const gitea = {
  caps: FORGE_CAPS,
  route: (repository) => ({ origin: repository.url.origin, ...ownerAndRepo(repository) }),
  canonicalUrl: (route) => `${route.origin}/${route.owner}/${route.repo}`,
  bind: ({ route, strategy }: ForgeTarget<GiteaRepo>, settings: AppSettings) =>
    forgeBinding(
      strategy,
      (deps) => fetchSelfHostedRelease(route, strategy, settings, deps),
      (deps) => giteaArchived(route, settings, deps),
    ),
} satisfies ForgeSource<GiteaRepo>;
