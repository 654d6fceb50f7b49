/**
 * Whether a repository's owner archived it (`archived: true` in the hub's and Gitea/Forgejo's
 * `GET /repos/{owner}/{repo}`, the lab's `GET /projects/{id}`). One request, asked only by `add`
 * and `adopt` before they write a recipe that would follow it; `check` and `update` never ask.
 */
import * as z from 'zod';
import type { AppSettings } from '../../config/types.js';
import type { ResolveDeps } from '../types.js';
import type { GiteaRepo } from './gitea.js';
import type { HubRepo } from './hub.js';
import type { LabProject } from './lab.js';
import { fetchMetadata, type MetadataRequest } from './metadata.js';
import { parseWith } from './release-fetch.js';
import { hubApiHeaders } from './token.js';

// Only the one field is read; the rest of the record is the forge's business.
const RepositoryRecord = z.object({ archived: z.boolean().nullish() });

/** true/false as the forge says; undefined when a rate limit kept the answer from us. */
export type ArchivedAnswer = boolean | undefined;

async function archivedAt(
  req: MetadataRequest,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<ArchivedAnswer> {
  const result = await fetchMetadata(req, settings, deps);
  if (result.kind === 'rate_limited') return undefined;
  return parseWith(RepositoryRecord, result.body, req.url).archived === true;
}

/** The hub repository's `archived` flag. */
export function hubArchived(
  repo: HubRepo,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<ArchivedAnswer> {
  const url = `${repo.apiBase}/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}`;
  return archivedAt(
    {
      url,
      headers: hubApiHeaders(url, settings),
      credentialsUnder: repo.apiBase,
      conditional: false,
      what: `repository ${repo.owner}/${repo.repo}`,
    },
    settings,
    deps,
  );
}

/** The Gitea/Forgejo repository's `archived` flag. */
export function giteaArchived(
  repo: GiteaRepo,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<ArchivedAnswer> {
  const url = `${repo.origin}/api/v1/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}`;
  const what = `repository ${repo.owner}/${repo.repo}`;
  return archivedAt(
    { url, headers: { accept: 'application/json' }, conditional: false, what },
    settings,
    deps,
  );
}

/** The lab project's `archived` flag. */
export function labArchived(
  project: LabProject,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<ArchivedAnswer> {
  const url = `${project.apiBase}/projects/${encodeURIComponent(project.path)}`;
  const what = `project ${project.path}`;
  return archivedAt(
    { url, headers: { accept: 'application/json' }, conditional: false, what },
    settings,
    deps,
  );
}
