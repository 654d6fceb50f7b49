/**
 * The lab (GitLab REST v4) release endpoints. As on GitLab, `releases/permalink/latest` answers
 * with a 302 to `/projects/{numeric id}/releases/{tag}` (keeping any suffix and query).
 */
import { isoSeconds, trimSlash, type ApiRequest } from './api-request.js';
import type { SimForgeFactory } from './forges.js';
import { jsonError, jsonResponse } from './json-response.js';
import { ReleaseStore, segments, type StoredRelease } from './release-store.js';
import type { Outgoing } from './send-body.js';
import type { SimLab } from './types.js';

/** Settings of the lab endpoints. */
export interface LabConfig {
  webBase: string | undefined;
  /** false: serve the latest release inline instead of redirecting (default true). */
  permalinkRedirect: boolean;
}

/** The simulated lab: projects and their releases, keyed by project path. */
export const labForge: SimForgeFactory<SimLab> = ({ options, ids }) => {
  const store = new ReleaseStore(ids);
  const config: LabConfig = {
    webBase: trimSlash(options.labWebBase),
    permalinkRedirect: options.labPermalinkRedirect ?? true,
  };
  return {
    respond: (req) => labResponse(req, store, config),
    control: {
      setLatest: (projectPath, release) => store.setLatest(projectPath, release),
      setReleases: (projectPath, releases) => store.setReleases(projectPath, releases),
      setArchived: (projectPath, archived) => store.setArchived(projectPath, archived),
    },
  };
};

function renderRelease(stored: StoredRelease, projectPath: string, webBase: string): unknown {
  const r = stored.release;
  const project = `${webBase}/${projectPath}`;
  const tag = encodeURIComponent(r.tag);
  const links = r.assets.map((a, i) => ({
    id: stored.id * 1000 + i,
    name: a.name,
    url: a.url,
    direct_asset_url: a.directAssetUrl ?? a.url,
    link_type: 'package',
  }));
  return {
    name: r.name ?? r.tag,
    tag_name: r.tag,
    description: r.body ?? '',
    created_at: isoSeconds(stored.createdAt),
    released_at: isoSeconds(stored.publishedAt),
    upcoming_release: stored.publishedAt.getTime() > Date.now(),
    author: { id: 1, username: projectPath.split('/')[0], name: projectPath.split('/')[0], state: 'active' },
    commit: { id: '0'.repeat(40), short_id: '00000000', title: r.tag },
    commit_path: `/${projectPath}/-/commit/${'0'.repeat(40)}`,
    tag_path: `/${projectPath}/-/tags/${tag}`,
    assets: { count: links.length, sources: [], links },
    evidences: [],
    _links: {
      self: `${project}/-/releases/${tag}`,
      edit_url: `${project}/-/releases/${tag}/edit`,
    },
  };
}

const projectNotFound = (): Outgoing => jsonError(404, { message: '404 Project Not Found' });
const notFound = (): Outgoing => jsonError(404, { message: '404 Not Found' });

/** Answers a lab API request, or returns undefined when the path is not a lab release route. */
export function labResponse(req: ApiRequest, store: ReleaseStore, config: LabConfig): Outgoing | undefined {
  if (!req.pathname.startsWith('/api/v4/projects/')) return undefined;
  const parts = segments(req.pathname);
  // ['api', 'v4', 'projects', id, 'releases', ...rest]; ['api', 'v4', 'projects', id] is the project.
  const project = parts.length === 4;
  if (!project && (parts.length < 5 || parts[4] !== 'releases')) return undefined;
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return jsonError(405, { message: '405 Method Not Allowed' });
  const idSegment = parts[3] ?? '';
  const rest = parts.slice(5);

  const found = /^\d+$/.test(idSegment)
    ? store.byId(Number(idSegment))
    : ((): [string, NonNullable<ReturnType<ReleaseStore['get']>>] | undefined => {
        const key = decodeURIComponent(idSegment);
        const repo = store.get(key);
        return repo ? [key, repo] : undefined;
      })();
  if (!found) return projectNotFound();
  const [projectPath, repo] = found;
  const webBase = config.webBase ?? req.origin;
  if (project) {
    return jsonResponse(
      {
        id: repo.id,
        path_with_namespace: projectPath,
        web_url: `${webBase}/${projectPath}`,
        archived: repo.archived === true,
        default_branch: 'main',
      },
      req.headers,
      repo.changedAt,
    );
  }

  if (rest[0] === 'permalink' && rest[1] === 'latest') {
    const latest = repo.releases[0];
    if (!latest) return notFound();
    const suffix = rest.length > 2 ? `/${rest.slice(2).join('/')}` : '';
    if (!config.permalinkRedirect && suffix === '') {
      return jsonResponse(renderRelease(latest, projectPath, webBase), req.headers, repo.changedAt);
    }
    const query = req.query.toString();
    const location = `${req.origin}/api/v4/projects/${repo.id}/releases/${encodeURIComponent(latest.release.tag)}${suffix}${query ? `?${query}` : ''}`;
    return {
      status: 302,
      headers: { location, 'content-type': 'application/json', 'cache-control': 'no-cache' },
      body: Buffer.from(''),
    };
  }
  if (rest.length === 0 || (rest.length === 1 && rest[0] === '')) {
    return jsonResponse(
      repo.releases.map((r) => renderRelease(r, projectPath, webBase)),
      req.headers,
      repo.changedAt,
    );
  }
  if (rest.length === 1) {
    const tag = decodeURIComponent(rest[0] ?? '');
    const release = repo.releases.find((r) => r.release.tag === tag);
    if (!release) return notFound();
    return jsonResponse(renderRelease(release, projectPath, webBase), req.headers, repo.changedAt);
  }
  return notFound();
}
