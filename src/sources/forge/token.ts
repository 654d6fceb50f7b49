/**
 * Scope of the hub token: only requests under the hub API base carry it, checked again after
 * every redirect (see `credentialsUnder` in src/http/open.ts). Proxies, assets, other forges and
 * any path outside the base, even on the same origin, never see it.
 */
import { hubApiBase } from '../../config/hub-api-base.js';
import type { AppSettings } from '../../config/types.js';
import { isUnderBase } from '../../http/url-scope.js';

export { DEFAULT_HUB_API, hubApiBase } from '../../config/hub-api-base.js';
export { isUnderBase } from '../../http/url-scope.js';

/** The Authorization header for a hub API request, or none when the URL is not under the API base. */
export function hubAuthHeaders(url: string, settings: AppSettings): Record<string, string> {
  const token = settings.token?.value;
  if (!token || !isUnderBase(url, hubApiBase(settings))) return {};
  return { authorization: `Bearer ${token}` };
}

/** Every header of a hub REST API request: the media type, the pinned API version and the token rule. */
export function hubApiHeaders(url: string, settings: AppSettings): Record<string, string> {
  return {
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    ...hubAuthHeaders(url, settings),
  };
}
