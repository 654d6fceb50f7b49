/**
 * The hub API base of a set of settings. It lives with the settings because it decides where the
 * hub token may go: a token from the environment, secrets.yml or config.yml belongs to the base
 * config.yml names, never to one a recipe sets.
 */
import type { GlobalSettings } from './types.js';

/** Public hub API base used when `hub_release_api_url` is not set. */
export const DEFAULT_HUB_API = 'https://api.github.com';

/** The hub API base of these settings, without a trailing slash. */
export function hubApiBase(
  settings: Partial<Pick<GlobalSettings, 'hub_release_api_url' | 'hub_release_web_url'>>,
): string {
  if (settings.hub_release_api_url) return settings.hub_release_api_url.replace(/\/+$/, '');
  // An enterprise web host without an explicit API base serves the REST API under /api/v3.
  if (settings.hub_release_web_url) {
    const web = new URL(settings.hub_release_web_url);
    if (web.host !== 'github.com') return `${web.origin}/api/v3`;
  }
  return DEFAULT_HUB_API;
}

/** Whether two API bases name the same place (case of the host, default ports and a trailing slash aside). */
export function sameApiBase(a: string, b: string): boolean {
  // The common case, every recipe on config.yml's base: no URL to parse.
  if (a === b) return true;
  const norm = (u: string): string => {
    try {
      const url = new URL(u);
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      return u;
    }
  };
  return norm(a) === norm(b);
}
