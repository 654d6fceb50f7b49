/**
 * Metadata proxies for the hub: when the hub API rate-limits us, the same API URL is fetched as
 * `<prefix><api url>` through each configured base in turn. The answer is only trusted when it
 * names the repository we asked for.
 */
import type { ProxyPrefix } from '../../config/types.js';

/**
 * Public GitHub proxy bases tried for `hub_proxy_prefix: all`, in order. They accept
 * `<base><absolute github URL>`; availability varies, which is why several are tried.
 */
export const BUILTIN_PROXY_BASES: readonly string[] = [
  'https://gh-proxy.com/',
  'https://ghfast.top/',
  'https://ghproxy.net/',
];

/** Environment variable that replaces the built-in list (comma or whitespace separated; empty = none). */
export const PROXY_BUILTINS_ENV = 'APPIMAGE_KEEPER_PROXY_BUILTINS';

/** The built-in list in effect: an explicit override, then the environment, then the defaults. */
export function builtinProxyBases(env: NodeJS.ProcessEnv, override?: readonly string[]): readonly string[] {
  if (override) return override;
  const fromEnv = env[PROXY_BUILTINS_ENV];
  if (fromEnv !== undefined) return fromEnv.split(/[\s,]+/).filter(Boolean);
  return BUILTIN_PROXY_BASES;
}

/** Expands `hub_proxy_prefix` into the ordered list of bases to try. */
export function proxyBases(prefix: ProxyPrefix, builtins: readonly string[]): string[] {
  if (prefix === 'all') return [...builtins];
  return prefix.flatMap((p) => (p === 'all' ? builtins : [p]));
}

/** The URL a proxy base fetches `apiUrl` through. */
export function proxiedUrl(base: string, apiUrl: string): string {
  return `${base}${apiUrl}`;
}

/**
 * True when a release (or every release of a list) links to `/{owner}/{repo}/` somewhere, so a
 * proxy cannot hand us another project's release.
 */
export function namesRepository(body: unknown, owner: string, repo: string): boolean {
  if (Array.isArray(body)) {
    return body.length > 0 && body.every((release) => namesRepository(release, owner, repo));
  }
  if (typeof body !== 'object' || body === null) return false;
  const needle = `/${owner}/${repo}/`.toLowerCase();
  return releaseUrls(body as Record<string, unknown>).some((u) => `${u.toLowerCase()}/`.includes(needle));
}

function releaseUrls(release: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of ['html_url', 'url', 'assets_url']) {
    const value = release[key];
    if (typeof value === 'string') out.push(value);
  }
  const assets = release.assets;
  if (Array.isArray(assets)) {
    for (const asset of assets as unknown[]) {
      if (typeof asset !== 'object' || asset === null) continue;
      const url = (asset as Record<string, unknown>).browser_download_url;
      if (typeof url === 'string') out.push(url);
    }
  }
  return out;
}
