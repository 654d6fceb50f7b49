/** Gitea and Forgejo: `{origin}/api/v1/repos/{owner}/{repo}/releases/latest` (the list for pre-releases, `tags/{tag}` for a tag). */
import * as z from 'zod';
import type { AppSettings, ForgeStrategy } from '../../config/types.js';
import type { ResolveDeps } from '../types.js';
import { fetchMetadata } from './metadata.js';
import type { ReleaseFetch } from './release-fetch.js';
import { parseRestRelease, releaseChoice, releaseWhat, RestAsset, restRelease } from './release-schema.js';
import type { ReleaseChoice } from './release-schema.js';
import type { ForgeRelease } from './release.js';

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
