/** Gitea/Forgejo: /swagger.v1.json (flavor detection), /api/v1/repos/{owner}/{repo} and its /releases[/latest]. */
import { isoSeconds, trimSlash, type ApiRequest, type AssetSizer } from './api-request.js';
import type { SimForgeFactory } from './forges.js';
import { jsonError, jsonResponse } from './json-response.js';
import { latestStable, ReleaseStore, repoKey, segments, type StoredRelease } from './release-store.js';
import type { Outgoing } from './send-body.js';
import type { SimGitea } from './types.js';

/** What the origin claims to be. */
export type GiteaFlavor = 'gitea' | 'forgejo' | 'none';

/** Settings of the gitea endpoints. */
export interface GiteaConfig {
  flavor: GiteaFlavor;
  webBase: string | undefined;
}

/** The simulated Gitea/Forgejo: silent (no swagger) until it has a release or a flavor is set. */
export const giteaForge: SimForgeFactory<SimGitea> = ({ options, ids, sizeOf }) => {
  const store = new ReleaseStore(ids);
  let explicitFlavor: GiteaFlavor | undefined;
  const config: GiteaConfig = {
    get flavor(): GiteaFlavor {
      return explicitFlavor ?? (store.size > 0 ? 'gitea' : 'none');
    },
    webBase: trimSlash(options.giteaWebBase),
  };
  return {
    respond: (req) => giteaResponse(req, store, config, sizeOf),
    control: {
      setFlavor: (flavor) => {
        explicitFlavor = flavor;
      },
      setLatest: (owner, repo, release) => store.setLatest(repoKey(owner, repo), release),
      setReleases: (owner, repo, releases) => store.setReleases(repoKey(owner, repo), releases),
      setArchived: (owner, repo, archived) => store.setArchived(repoKey(owner, repo), archived),
    },
  };
};

function swagger(flavor: 'gitea' | 'forgejo'): unknown {
  const brand = flavor === 'gitea' ? 'Gitea' : 'Forgejo';
  return {
    consumes: ['application/json', 'text/plain'],
    produces: ['application/json', 'text/html'],
    schemes: ['http', 'https'],
    swagger: '2.0',
    info: {
      description: `This documentation describes the ${brand} API.`,
      title: `${brand} API`,
      license: { name: 'MIT', url: 'http://opensource.org/licenses/MIT' },
      version: flavor === 'gitea' ? '1.22.3' : '9.0.3+gitea-1.22.0',
    },
    basePath: '/api/v1',
    paths: {
      '/repos/{owner}/{repo}/releases': { get: { operationId: 'repoListReleases' } },
      '/repos/{owner}/{repo}/releases/latest': { get: { operationId: 'repoGetLatestRelease' } },
    },
  };
}

async function renderRelease(
  stored: StoredRelease,
  owner: string,
  repo: string,
  origin: string,
  webBase: string,
  sizeOf: AssetSizer,
): Promise<unknown> {
  const r = stored.release;
  const tag = encodeURIComponent(r.tag);
  const web = `${webBase}/${owner}/${repo}`;
  const user = { id: 1, login: owner, full_name: '', username: owner };
  return {
    id: stored.id,
    tag_name: r.tag,
    target_commitish: 'main',
    name: r.name ?? r.tag,
    body: r.body ?? '',
    url: `${origin}/api/v1/repos/${owner}/${repo}/releases/${stored.id}`,
    html_url: `${web}/releases/tag/${tag}`,
    tarball_url: `${web}/archive/${tag}.tar.gz`,
    zipball_url: `${web}/archive/${tag}.zip`,
    upload_url: `${origin}/api/v1/repos/${owner}/${repo}/releases/${stored.id}/assets`,
    draft: r.draft ?? false,
    prerelease: r.prerelease ?? false,
    created_at: isoSeconds(stored.createdAt),
    published_at: isoSeconds(stored.publishedAt),
    author: user,
    assets: await Promise.all(
      r.assets.map(async (a, i) => ({
        id: stored.id * 1000 + i,
        name: a.name,
        size: a.size ?? (await sizeOf(a.url)) ?? 0,
        download_count: 0,
        created_at: isoSeconds(stored.createdAt),
        uuid: `00000000-0000-4000-8000-${String(stored.id * 1000 + i).padStart(12, '0')}`,
        browser_download_url: a.url,
      })),
    ),
  };
}

/** Answers a gitea request, or returns undefined when the path is not one of its routes. */
export async function giteaResponse(
  req: ApiRequest,
  store: ReleaseStore,
  config: GiteaConfig,
  sizeOf: AssetSizer,
): Promise<Outgoing | undefined> {
  if (req.pathname === '/swagger.v1.json') {
    if (config.flavor === 'none') return undefined;
    return jsonResponse(swagger(config.flavor), req.headers);
  }
  if (!req.pathname.startsWith('/api/v1/repos/')) return undefined;
  const parts = segments(req.pathname);
  // ['api', 'v1', 'repos', owner, repo, 'releases', ...rest]; ['api', 'v1', 'repos', owner, repo]
  // is the repository itself.
  const repository = parts.length === 5;
  if (!repository && (parts.length < 6 || parts[5] !== 'releases')) return undefined;
  if (config.flavor === 'none') return undefined;
  const notFound = (): Outgoing =>
    jsonError(404, {
      errors: [],
      message: "The target couldn't be found.",
      url: `${req.origin}/api/swagger`,
    });
  if (req.method !== 'GET' && req.method !== 'HEAD') return jsonError(405, { message: 'Method Not Allowed' });
  const owner = parts[3] ?? '';
  const repoName = parts[4] ?? '';
  const rest = parts.slice(6);
  const repo = store.get(`${owner}/${repoName}`.toLowerCase());
  if (repository) {
    if (!repo) return notFound();
    return jsonResponse(
      {
        id: repo.id,
        name: repoName,
        full_name: `${owner}/${repoName}`,
        html_url: `${config.webBase ?? req.origin}/${owner}/${repoName}`,
        archived: repo.archived === true,
        default_branch: 'main',
      },
      req.headers,
      repo.changedAt,
    );
  }
  const render = (s: StoredRelease): Promise<unknown> =>
    renderRelease(s, owner, repoName, req.origin, config.webBase ?? req.origin, sizeOf);

  if (rest.length === 1 && rest[0] === 'latest') {
    const latest = latestStable(repo);
    if (!latest) return notFound();
    return jsonResponse(await render(latest), req.headers, repo?.changedAt);
  }
  if (rest.length === 0 || (rest.length === 1 && rest[0] === '')) {
    if (!repo) return notFound();
    const visible = repo.releases.filter((r) => req.authorized || !r.release.draft);
    return jsonResponse(await Promise.all(visible.map(render)), req.headers, repo.changedAt);
  }
  if (rest.length === 2 && rest[0] === 'tags') {
    const tag = decodeURIComponent(rest[1] ?? '');
    const found = repo?.releases.find((r) => r.release.tag === tag);
    if (!found) return notFound();
    return jsonResponse(await render(found), req.headers, repo?.changedAt);
  }
  return notFound();
}
