/** The hub (GitHub REST) release endpoints: /repos/{owner}/{repo}/releases[/latest|/tags/{tag}]. */
import type { OutgoingHttpHeaders } from 'node:http';
import { isoSeconds, trimSlash, type ApiRequest, type AssetSizer } from './api-request.js';
import { jsonError, jsonResponse } from './json-response.js';
import { budgetExhausted, budgetHeaders, type RateBudgets } from './rate-limit.js';
import {
  latestStable,
  ReleaseStore,
  repoKey,
  segments,
  type RepoReleases,
  type StoredRelease,
} from './release-store.js';
import { AttestationStore } from './attestations.js';
import type { SimForgeFactory } from './forges.js';
import { rateLimitResponse } from './rate-limit-api.js';
import type { Outgoing } from './send-body.js';
import type { SimHub, SimOptions } from './types.js';

/** Settings of the hub endpoints. */
export interface HubConfig {
  apiPrefix: string;
  webBase: string | undefined;
}

/** The hub API's path prefix on the sim's origins ('' unless `hubApiPrefix` names one). */
export function hubApiPrefix(options: SimOptions): string {
  return trimSlash(options.hubApiPrefix) ?? '';
}

/** The simulated hub: releases, repositories, attestations and `/rate_limit`, under one request budget. */
export const hubForge: SimForgeFactory<SimHub> = ({ options, ids, budgets, sizeOf, putSecond }) => {
  const store = new ReleaseStore(ids);
  const config: HubConfig = { apiPrefix: hubApiPrefix(options), webBase: trimSlash(options.hubWebBase) };
  // Blobs live on the second origin, like GitHub's blob storage on another host.
  const attestations = new AttestationStore(putSecond);
  return {
    respond: async (req) =>
      rateLimitResponse(req, budgets, config.apiPrefix) ??
      (await hubResponse(req, store, budgets, config, sizeOf, attestations)),
    control: {
      setLatest: (owner, repo, release) => store.setLatest(repoKey(owner, repo), release),
      setReleases: (owner, repo, releases) => store.setReleases(repoKey(owner, repo), releases),
      setArchived: (owner, repo, archived) => store.setArchived(repoKey(owner, repo), archived),
      setAttestations: (owner, repo, hex, bundles, mode = 'inline') =>
        attestations.set(owner, repo, hex, bundles, mode),
    },
  };
};

const DOCS = 'https://docs.github.com/rest/releases/releases';

async function renderRelease(
  stored: StoredRelease,
  owner: string,
  repo: string,
  apiBase: string,
  webBase: string,
  sizeOf: AssetSizer,
): Promise<unknown> {
  const r = stored.release;
  const repoApi = `${apiBase}/repos/${owner}/${repo}`;
  const user = { login: owner, id: 1, type: 'User', site_admin: false };
  const assets = await Promise.all(
    r.assets.map(async (a, i) => ({
      url: `${repoApi}/releases/assets/${stored.id * 1000 + i}`,
      id: stored.id * 1000 + i,
      node_id: `RA_sim${stored.id}_${i}`,
      name: a.name,
      label: '',
      uploader: user,
      content_type: a.contentType ?? 'application/octet-stream',
      state: 'uploaded',
      size: a.size ?? (await sizeOf(a.url)) ?? 0,
      digest: a.digest ?? null,
      download_count: 0,
      created_at: isoSeconds(stored.createdAt),
      updated_at: isoSeconds(stored.createdAt),
      browser_download_url: a.url,
    })),
  );
  return {
    url: `${repoApi}/releases/${stored.id}`,
    assets_url: `${repoApi}/releases/${stored.id}/assets`,
    upload_url: `${repoApi}/releases/${stored.id}/assets{?name,label}`,
    html_url: `${webBase}/${owner}/${repo}/releases/tag/${encodeURIComponent(r.tag)}`,
    id: stored.id,
    author: user,
    node_id: `RE_sim${stored.id}`,
    tag_name: r.tag,
    target_commitish: 'main',
    name: r.name ?? r.tag,
    draft: r.draft ?? false,
    immutable: r.immutable ?? false,
    prerelease: r.prerelease ?? false,
    created_at: isoSeconds(stored.createdAt),
    published_at: r.draft ? null : isoSeconds(stored.publishedAt),
    assets,
    tarball_url: `${repoApi}/tarball/${encodeURIComponent(r.tag)}`,
    zipball_url: `${repoApi}/zipball/${encodeURIComponent(r.tag)}`,
    body: r.body ?? '',
  };
}

const REPOS_DOCS = 'https://docs.github.com/rest/repos/repos';

// The fields of `GET /repos/{owner}/{repo}` a client may read; `archived` is the one we serve for.
function repositoryJson(owner: string, repo: string, stored: RepoReleases, webBase: string): unknown {
  return {
    id: stored.id,
    name: repo,
    full_name: `${owner}/${repo}`,
    owner: { login: owner, id: 1, type: 'User' },
    html_url: `${webBase}/${owner}/${repo}`,
    archived: stored.archived === true,
    disabled: false,
    default_branch: 'main',
  };
}

function notFound(documentation: string): Outgoing {
  return jsonError(404, { message: 'Not Found', documentation_url: documentation, status: '404' });
}

/** Answers a hub API request, or returns undefined when the path is not a hub release route. */
export async function hubResponse(
  req: ApiRequest,
  store: ReleaseStore,
  budgets: RateBudgets,
  config: HubConfig,
  sizeOf: AssetSizer,
  attestations?: AttestationStore,
): Promise<Outgoing | undefined> {
  if (!req.pathname.startsWith(`${config.apiPrefix}/repos/`)) return undefined;
  const parts = segments(req.pathname.slice(config.apiPrefix.length));
  // ['repos', owner, repo, 'releases', ...rest]; ['repos', owner, repo] is the repository itself.
  const attesting = parts[3] === 'attestations' && attestations !== undefined;
  const repository = parts.length === 3 && parts[0] === 'repos';
  if (!repository && (parts.length < 4 || parts[0] !== 'repos' || (parts[3] !== 'releases' && !attesting)))
    return undefined;
  const [, owner = '', repoName = '', , ...rest] = parts;

  const budget = budgets.peek(req.clientKey, req.authorized);
  if (budget && budget.remaining === 0) return budgetExhausted(budget);

  const answer = await route();
  // A 304 costs nothing, as on GitHub.
  if (budget && answer.status !== 304) budgets.consume(req.clientKey);
  const after = budgets.peek(req.clientKey, req.authorized);
  if (after) answer.headers = { ...answer.headers, ...budgetHeaders(after) };
  return answer;

  async function route(): Promise<Outgoing> {
    if (attesting) return attestations.respond(req, owner, repoName, rest);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return jsonError(405, { message: 'Method Not Allowed' }, { allow: 'GET, HEAD' });
    }
    // GitHub treats owner and repository names case-insensitively.
    const key = `${owner}/${repoName}`.toLowerCase();
    const repo = store.get(key);
    const apiBase = `${req.origin}${config.apiPrefix}`;
    const webBase = config.webBase ?? req.origin;
    const render = (s: StoredRelease): Promise<unknown> =>
      renderRelease(s, owner, repoName, apiBase, webBase, sizeOf);
    const extra: OutgoingHttpHeaders = { 'x-github-api-version-selected': '2022-11-28' };
    if (repository) {
      if (!repo) return notFound(`${REPOS_DOCS}#get-a-repository`);
      return jsonResponse(repositoryJson(owner, repoName, repo, webBase), req.headers, repo.changedAt, extra);
    }

    if (rest.length === 1 && rest[0] === 'latest') {
      const latest = latestStable(repo);
      if (!latest) return notFound(`${DOCS}#get-the-latest-release`);
      return jsonResponse(await render(latest), req.headers, repo?.changedAt, extra);
    }
    if (rest.length === 2 && rest[0] === 'tags') {
      const tag = decodeURIComponent(rest[1] ?? '');
      const found = repo?.releases.find((r) => r.release.tag === tag && !r.release.draft);
      if (!found) return notFound(`${DOCS}#get-a-release-by-tag-name`);
      return jsonResponse(await render(found), req.headers, repo?.changedAt, extra);
    }
    if (rest.length === 0 || (rest.length === 1 && rest[0] === '')) {
      if (!repo) return notFound(`${DOCS}#list-releases`);
      // Drafts are only visible to authenticated users with push access; the sim treats any token as such.
      const visible = repo.releases.filter((r) => req.authorized || !r.release.draft);
      const perPage = Math.min(100, Math.max(1, Number(req.query.get('per_page') ?? 30) || 30));
      const page = Math.max(1, Number(req.query.get('page') ?? 1) || 1);
      const slice = visible.slice((page - 1) * perPage, page * perPage);
      const lastPage = Math.max(1, Math.ceil(visible.length / perPage));
      const links: string[] = [];
      const pageUrl = (p: number): string =>
        `${apiBase}/repos/${owner}/${repoName}/releases?per_page=${perPage}&page=${p}`;
      if (page < lastPage)
        links.push(`<${pageUrl(page + 1)}>; rel="next"`, `<${pageUrl(lastPage)}>; rel="last"`);
      if (page > 1) links.push(`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(page - 1)}>; rel="prev"`);
      if (links.length > 0) extra.link = links.join(', ');
      return jsonResponse(await Promise.all(slice.map(render)), req.headers, repo.changedAt, extra);
    }
    const id = Number(rest[0]);
    if (rest.length === 1 && Number.isInteger(id)) {
      const found = repo?.releases.find((r) => r.id === id);
      if (!found) return notFound(`${DOCS}#get-a-release`);
      return jsonResponse(await render(found), req.headers, repo?.changedAt, extra);
    }
    return notFound('https://docs.github.com/rest');
  }
}
