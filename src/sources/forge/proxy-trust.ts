/**
 * What a proxied hub answer may decide. A proxy relays release metadata while the hub rate-limits
 * us; it must never choose the bytes we install. Its asset URLs must be the hub's own download URLs
 * for the recipe's repository, and it cannot hand us a release older than the one installed.
 */
import semver from 'semver';
import { KeeperError } from '../../core/errors.js';
import type { ForgeRelease } from './release.js';

/** The public hub web host used when `hub_release_web_url` is not set. */
export const DEFAULT_HUB_WEB = 'https://github.com';

/** Where the repository's release downloads live on the hub's web host. */
export interface HubDownloadScope {
  /** `hub_release_web_url`, or the public hub. */
  webUrl: string;
  owner: string;
  repo: string;
  /** The proxy base the answer came through, named in errors. */
  proxy: string;
}

/**
 * Throws PROXY_ASSET_URL unless every asset of a proxied release is
 * `<web URL>/<owner>/<repo>/releases/download/<tag>/<name>` on the web URL's scheme and host.
 */
export function assertHubDownloadUrls(release: ForgeRelease, scope: HubDownloadScope): void {
  for (const asset of release.assets) {
    if (isHubDownloadUrl(asset.url, release.tag, asset.name, scope)) continue;
    throw new KeeperError(
      'PROXY_ASSET_URL',
      `release metadata from proxy ${scope.proxy} points asset ${asset.name} at ${asset.url}, which is not the hub's download URL for ${scope.owner}/${scope.repo}; nothing was downloaded`,
      {
        hint: 'the proxy rewrote or forged the release; remove it from hub_proxy_prefix, or wait for the hub rate limit to end',
        details: { proxy: scope.proxy, asset: asset.name, url: asset.url },
      },
    );
  }
}

function isHubDownloadUrl(raw: string, tag: string, name: string, scope: HubDownloadScope): boolean {
  let url: URL;
  let web: URL;
  try {
    url = new URL(raw);
    web = new URL(scope.webUrl);
  } catch {
    return false;
  }
  if (url.protocol !== web.protocol || url.host !== web.host) return false;
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return false;
  const base = web.pathname.split('/').filter(Boolean);
  let parts: string[];
  try {
    parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return false;
  }
  const expected = [...base, scope.owner, scope.repo, 'releases', 'download', tag, name];
  if (parts.length !== expected.length) return false;
  // Owner and repository names are case-insensitive on the hub; tag and file name are not.
  const caseless = new Set([base.length, base.length + 1]);
  return expected.every((want, i) =>
    caseless.has(i) ? parts[i]?.toLowerCase() === want.toLowerCase() : parts[i] === want,
  );
}

/** What is known of a release for ordering: its tag and publication time. */
export interface ReleaseOrderInfo {
  tag: string;
  publishedAt?: string | undefined;
}

/**
 * True when `candidate` is older than `installed`: by publication time when both have one, else by
 * the tags' version order when both parse as versions; unknown order is not a downgrade.
 */
export function isOlderRelease(candidate: ReleaseOrderInfo, installed: ReleaseOrderInfo): boolean {
  const a = Date.parse(candidate.publishedAt ?? '');
  const b = Date.parse(installed.publishedAt ?? '');
  if (Number.isFinite(a) && Number.isFinite(b)) return a < b;
  const va = tagVersion(candidate.tag);
  const vb = tagVersion(installed.tag);
  if (va && vb) return semver.lt(va, vb);
  return false;
}

/** A strict semver read of a tag (`v1.2.3`, `1.2`, `release-2.0.1`), or undefined. */
function tagVersion(tag: string): string | undefined {
  const match = /(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?$/.exec(tag.trim());
  if (!match) return undefined;
  const [, major, minor = '0', patch = '0', pre = ''] = match;
  return semver.valid(`${major}.${minor}.${patch}${pre}`) ?? undefined;
}
