/**
 * Scope of the hub token: only requests to the hub API base carry it. Proxies, assets, other
 * forges and redirect targets on another origin never see it (the HTTP client drops it there).
 */
import type { AppSettings } from '../config/types.js';

/** Public hub API base used when `hub_release_api_url` is not set. */
export const DEFAULT_HUB_API = 'https://api.github.com';

/** The hub API base of these settings, without a trailing slash. */
export function hubApiBase(
  settings: Pick<AppSettings, 'hub_release_api_url' | 'hub_release_web_url'>,
): string {
  if (settings.hub_release_api_url) return trimSlash(settings.hub_release_api_url);
  // An enterprise web host without an explicit API base serves the REST API under /api/v3.
  if (settings.hub_release_web_url) {
    const web = new URL(settings.hub_release_web_url);
    if (web.host !== 'github.com') return `${web.origin}/api/v3`;
  }
  return DEFAULT_HUB_API;
}

/** True when `url` lies under `base` on a path-segment boundary. */
export function isUnderBase(url: string, base: string): boolean {
  const root = trimSlash(base);
  return url === root || url.startsWith(`${root}/`) || url.startsWith(`${root}?`);
}

/** The Authorization header for a hub API request, or none when the URL is not under the API base. */
export function hubAuthHeaders(url: string, settings: AppSettings): Record<string, string> {
  const token = settings.token?.value;
  if (!token || !isUnderBase(url, hubApiBase(settings))) return {};
  return { authorization: `Bearer ${token}` };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
