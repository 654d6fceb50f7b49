/**
 * A forge recipe's `repository`, parsed once for routing: the URL and its path segments (decoded,
 * `.git` dropped from the last). Each forge reads its own shape from these (forges.ts routes).
 */
import type { GlobalSettings } from '../../config/types.js';
import { KeeperError } from '../../core/errors.js';

/**
 * The settings routing may read: any global field (a forge's configured host and API base, such as
 * `hub_release_web_url`), so a forge with a setting of its own needs no change here.
 */
export type RouteSettings = Partial<GlobalSettings>;

/** A repository URL as routing sees it. */
export interface RepositoryUrl {
  /** As the recipe wrote it, for error messages. */
  readonly text: string;
  readonly url: URL;
  readonly segments: readonly string[];
}

/** Parses a repository URL; throws FORGE_REPOSITORY_INVALID when it is not an http(s) URL. */
export function parseRepositoryUrl(text: string): RepositoryUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch (err) {
    throw invalidRepository(text, 'not a URL', err);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidRepository(text, 'must be http(s)');
  let segments: string[];
  try {
    segments = url.pathname
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch (err) {
    // A malformed escape (`%E0`, `%ZZ`) names no repository; it must not escape as a URIError.
    throw invalidRepository(text, 'malformed percent-encoding in the path', err);
  }
  const last = segments.length - 1;
  if (last >= 0) segments[last] = (segments[last] ?? '').replace(/\.git$/, '');
  return { text, url, segments };
}

/** The `owner/repo` the first two segments name; throws FORGE_REPOSITORY_INVALID without them. */
export function ownerAndRepo(repository: RepositoryUrl): { owner: string; repo: string } {
  const [owner, repo] = repository.segments;
  if (!owner || !repo) throw invalidRepository(repository.text, 'expected https://<host>/<owner>/<repo>');
  return { owner, repo };
}

/** The host of a configured web URL, or undefined when it is unset or not a URL. */
export function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** FORGE_REPOSITORY_INVALID for `repository`, saying why. */
export function invalidRepository(repository: string, why: string, cause?: unknown): KeeperError {
  return new KeeperError('FORGE_REPOSITORY_INVALID', `repository "${repository}": ${why}`, { cause });
}
