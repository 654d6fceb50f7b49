/** Release lists per repository, newest first, as the forge endpoints read them. */
import type { SimRelease } from './types.js';

/** A stored release with the stable numeric id and timestamps every forge shape needs. */
export interface StoredRelease {
  id: number;
  release: SimRelease;
  createdAt: Date;
  publishedAt: Date;
}

/** What one repository holds. */
export interface RepoReleases {
  /** Numeric id of the repository/project (lab redirects use it). */
  id: number;
  releases: StoredRelease[];
  changedAt: Date;
  /** The owner archived it: read-only, its releases still served. */
  archived?: boolean;
}

/** The store key of a hub or gitea repository: both treat names case-insensitively. */
export function repoKey(owner: string, repo: string): string {
  return `${owner}/${repo}`.toLowerCase();
}

/** Releases keyed by repository ('owner/repo' or a lab project path). */
export class ReleaseStore {
  private repos = new Map<string, RepoReleases>();

  constructor(private readonly ids: { next(): number }) {}

  /** Puts `release` first, replacing an older release with the same tag. */
  setLatest(key: string, release: SimRelease): void {
    const repo = this.repo(key);
    const kept = repo.releases.filter((r) => r.release.tag !== release.tag);
    repo.releases = [this.stored(release, new Date()), ...kept];
    repo.changedAt = new Date();
  }

  /** Replaces the list; releases without `publishedAt` get decreasing times so the order is consistent. */
  setReleases(key: string, releases: SimRelease[]): void {
    const repo = this.repo(key);
    const now = Date.now();
    repo.releases = releases.map((r, i) => this.stored(r, new Date(now - i * 60_000)));
    repo.changedAt = new Date();
  }

  /** Marks the repository archived (or not), as its owner can. */
  setArchived(key: string, archived: boolean): void {
    const repo = this.repo(key);
    repo.archived = archived;
    repo.changedAt = new Date();
  }

  /** The repository, or undefined when nothing was ever set for it. */
  get(key: string): RepoReleases | undefined {
    return this.repos.get(key);
  }

  /** Finds a repository by its numeric id. */
  byId(id: number): [string, RepoReleases] | undefined {
    for (const entry of this.repos) if (entry[1].id === id) return entry;
    return undefined;
  }

  /** Number of repositories ever set. */
  get size(): number {
    return this.repos.size;
  }

  private repo(key: string): RepoReleases {
    let repo = this.repos.get(key);
    if (!repo) {
      repo = { id: this.ids.next(), releases: [], changedAt: new Date() };
      this.repos.set(key, repo);
    }
    return repo;
  }

  private stored(release: SimRelease, fallback: Date): StoredRelease {
    const publishedAt = release.publishedAt ?? fallback;
    return { id: this.ids.next(), release, createdAt: publishedAt, publishedAt };
  }
}

/** The newest release that is neither a draft nor a prerelease (GitHub and Gitea "latest"). */
export function latestStable(repo: RepoReleases | undefined): StoredRelease | undefined {
  return repo?.releases.find((r) => !r.release.draft && !r.release.prerelease);
}

/** Splits a path into segments without decoding them (lab paths are %2F-encoded in one segment). */
export function segments(pathname: string): string[] {
  return pathname.split('/').slice(1);
}
