/**
 * The direct strategy: a stable URL whose ETag or Last-Modified says when the file changed.
 * HEAD first; servers that refuse HEAD get a one-byte ranged GET instead.
 */
import { createHash } from 'node:crypto';
import type { AppSettings, DirectStrategy } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import { memoize } from './forge/memo.js';
import { appWindow, clearAppWindow, detectRateLimit, recordAppWindow } from './forge/rate-limit.js';
import { request } from '../http/http.js';
import type { HttpResponse } from '../http/http.js';
import { assetNameFromUrl } from './asset-name.js';
import type { Source } from './source.js';
import type { ResolveDeps, ResolveOutcome } from './types.js';

/** A stable URL: its headers say when the file changed, the AppImage itself says which version it is. */
export const direct = {
  kind: 'direct',
  caps: { versionFromFile: true, releaseAssets: false },
  bind: (strategy: DirectStrategy, settings: AppSettings) => ({
    limiterKey: strategy.url,
    resolve: (deps: ResolveDeps) => resolveDirect(strategy, settings, deps),
  }),
} satisfies Source<DirectStrategy>;

// 403 is included because some CDNs sign GET URLs and reject HEAD on them with 403.
const HEAD_REFUSED = new Set([403, 405, 501]);

/** Resolves a direct recipe from the headers of its URL. */
export async function resolveDirect(
  strategy: DirectStrategy,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<ResolveOutcome> {
  const requested = parseUrl(strategy.url).host;
  const window = appWindow(deps.store, settings.name, strategy.url, deps.ctx.now());
  if (window && settings.respect_rate_limits && !deps.force) {
    const host = window.host ?? requested;
    return { kind: 'rate_limited', retryAt: new Date(window.until), host, message: window.message };
  }
  const { value, shared } = await memoize(deps.memo, `HEAD ${strategy.url}`, () => probe(strategy.url, deps));
  const { res, requests } = value;
  const limit = detectRateLimit(res.status, res.headers, deps.ctx.now());
  if (limit) {
    // The host that answered with the limit, which a redirect (a mirror, a CDN) may have changed.
    const host = new URL(res.url).host;
    const message = `${host} ${limit.message}`;
    recordAppWindow(deps.store, settings.name, strategy.url, host, { retryAt: limit.retryAt, message });
    return { kind: 'rate_limited', retryAt: limit.retryAt, host, message };
  }
  if (res.status < 200 || res.status >= 300) {
    throw new KeeperError('DIRECT_HTTP_ERROR', `HTTP ${res.status} from ${strategy.url}`, {
      details: { status: res.status, url: res.url },
    });
  }
  clearAppWindow(deps.store, settings.name);
  const headerName = strategy.check_method === 'etag' ? 'etag' : 'last-modified';
  const headerValue = res.headers[headerName];
  if (!headerValue) {
    const label = strategy.check_method === 'etag' ? 'ETag' : 'Last-Modified';
    throw new KeeperError(
      'DIRECT_NO_HEADER',
      `${res.url} sent no ${label} header (check_method: ${strategy.check_method})`,
      {
        hint: `use check_method: ${strategy.check_method === 'etag' ? 'last-modified' : 'etag'} if the server sends that one, or the script strategy`,
        details: { header: label, url: res.url },
      },
    );
  }
  // The file's age for min_release_age, whichever header check_method compares.
  const lastModified = res.headers['last-modified'];
  return {
    kind: 'resolved',
    requests: shared ? 0 : requests,
    notModified: false,
    resolution: {
      version: provisionalVersion(strategy.check_method, headerValue, res.url),
      identity: headerValue,
      url: res.url,
      assetName: assetNameFromUrl(res.url, settings.name),
      size: sizeOf(res),
      validator: res.headers.etag ?? res.headers['last-modified'],
      ...(lastModified ? { releasedAt: { at: lastModified, what: 'last modified' } } : {}),
    },
  };
}

/** The version shown until the AppImage's own X-AppImage-Version is known. */
export function provisionalVersion(method: DirectStrategy['check_method'], header: string, url = ''): string {
  if (method === 'etag') return `etag-${createHash('sha256').update(header).digest('hex').slice(0, 8)}`;
  const date = new Date(header);
  if (Number.isNaN(date.getTime())) {
    throw new KeeperError('DIRECT_BAD_HEADER', `Last-Modified "${header}" from ${url} is not an HTTP date`);
  }
  return date.toISOString().slice(0, 10);
}

async function probe(url: string, deps: ResolveDeps): Promise<{ res: HttpResponse; requests: number }> {
  const head = await request(deps.ctx.http, url, { method: 'HEAD', discardBody: true, signal: deps.signal });
  if (!HEAD_REFUSED.has(head.status) || detectRateLimit(head.status, head.headers, deps.ctx.now())) {
    return { res: head, requests: head.requests };
  }
  const get = await request(deps.ctx.http, url, {
    headers: { range: 'bytes=0-0' },
    discardBody: true,
    signal: deps.signal,
  });
  return { res: get, requests: head.requests + get.requests };
}

function sizeOf(res: HttpResponse): number | undefined {
  const total = /\/(\d+)\s*$/.exec(res.headers['content-range'] ?? '');
  if (res.status === 206) return total ? Number(total[1]) : undefined;
  const length = Number(res.headers['content-length']);
  return Number.isFinite(length) && length > 0 ? length : undefined;
}

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch (err) {
    throw new KeeperError('DIRECT_URL_INVALID', `strategy.url "${url}" is not a URL`, { cause: err });
  }
}
