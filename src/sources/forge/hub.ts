/** The hub (GitHub REST): `{base}/repos/{owner}/{repo}/releases/latest`, `/releases` for pre-releases, `/releases/tags/{tag}`. */
import { hubArchived } from './archived.js';
import * as z from 'zod';
import type { AppSettings, ForgeStrategy } from '../../config/types.js';
import type { ForgeSource } from '../source.js';
import type { ResolveDeps } from '../types.js';
import { hubAttestations } from './attestations.js';
import { FORGE_CAPS, forgeBinding, type ForgeTarget } from './forge-source.js';
import { fetchMetadata } from './metadata.js';
import type { ReleaseFetch } from './release-fetch.js';
import { parseRestRelease, releaseChoice, releaseWhat, RestAsset, restRelease } from './release-schema.js';
import type { ReleaseChoice } from './release-schema.js';
import { assertHubDownloadUrls, DEFAULT_HUB_WEB } from './proxy-trust.js';
import { sha256FromDigest } from './release.js';
import type { ForgeRelease } from './release.js';
import { hostOf, ownerAndRepo } from './repository-url.js';
import { hubApiBase, hubApiHeaders } from './token.js';

const HubAsset = RestAsset.extend({
  digest: z.string().nullish(),
  updated_at: z.string().nullish(),
});

// `immutable: true` marks a release whose assets can no longer change; GitHub attests those.
const HubRelease = restRelease(HubAsset).extend({ immutable: z.boolean().nullish() });

/** A hub repository and the API base serving it. */
export interface HubRepo {
  apiBase: string;
  owner: string;
  repo: string;
}

/** The release URL the strategy reads: latest, the list (pre-releases wanted), or `tags/{tag}`. */
export function hubReleaseUrl(repo: HubRepo, choice: ReleaseChoice): string {
  const root = `${repo.apiBase}/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}/releases`;
  if (choice.kind === 'tag') return `${root}/tags/${encodeURIComponent(choice.tag)}`;
  return choice.kind === 'list' ? root : `${root}/latest`;
}

/** Fetches the hub release a forge recipe follows. */
export async function fetchHubRelease(
  repo: HubRepo,
  strategy: ForgeStrategy,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<ReleaseFetch> {
  const choice = releaseChoice(strategy);
  const url = hubReleaseUrl(repo, choice);
  const slug = `${repo.owner}/${repo.repo}`;
  const result = await fetchMetadata(
    {
      url,
      headers: hubApiHeaders(url, settings),
      credentialsUnder: repo.apiBase,
      conditional: true,
      proxyFor: { owner: repo.owner, repo: repo.repo },
      what: releaseWhat(choice, slug),
    },
    settings,
    deps,
  );
  if (result.kind === 'rate_limited') return result;
  const release = toForgeRelease(parseRestRelease(HubRelease, result.body, url, choice, slug));
  if (result.via !== undefined) {
    // A proxy relayed this answer: it may tell us which release is newest, never which bytes to fetch.
    release.viaProxy = result.via;
    assertHubDownloadUrls(release, {
      webUrl: settings.hub_release_web_url ?? DEFAULT_HUB_WEB,
      owner: repo.owner,
      repo: repo.repo,
      proxy: result.via,
    });
  }
  return {
    kind: 'ok',
    release,
    notModified: result.notModified,
    requests: result.requests,
  };
}

type HubReleaseJson = z.infer<typeof HubRelease>;

function toForgeRelease(release: HubReleaseJson): ForgeRelease {
  return {
    tag: release.tag_name,
    releaseUrl: release.html_url,
    immutable: release.immutable === true,
    publishedAt: release.published_at ?? undefined,
    assets: release.assets.map((a) => ({
      name: a.name,
      url: a.browser_download_url,
      size: a.size,
      sha256: sha256FromDigest(a.digest),
      id: a.id,
      updatedAt: a.updated_at ?? undefined,
    })),
  };
}

/** The hub as a source: GitHub releases, with attestations and a rate-limit budget doctor can read. */
export const hub = {
  caps: FORGE_CAPS,
  ownsHost: (host, settings) => host === 'github.com' || host === hostOf(settings.hub_release_web_url),
  route: (repository, settings) => ({ apiBase: hubApiBase(settings), ...ownerAndRepo(repository) }),
  canonicalUrl: (route, repository) => `${repository.url.origin}/${route.owner}/${route.repo}`,
  bind: ({ route, strategy }: ForgeTarget<HubRepo>, settings: AppSettings) =>
    forgeBinding(
      strategy,
      (deps) => fetchHubRelease(route, strategy, settings, deps),
      (deps) => hubArchived(route, settings, deps),
      {
        hubApiBase: route.apiBase,
        attestations: (deps) => hubAttestations(route, settings, deps),
      },
    ),
} satisfies ForgeSource<HubRepo>;
