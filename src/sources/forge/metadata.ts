/**
 * One forge metadata request with everything around it: open rate-limit windows, conditional
 * requests replayed from the store, rate-limit detection, the hub proxy fallback, and per-run
 * sharing so one repository costs one request.
 */
import type { AppSettings } from '../../config/types.js';
import { KeeperError } from '../../core/errors.js';
import { conditionalGetJson } from '../../http/conditional.js';
import { request } from '../../http/http.js';
import { parseBoundedJson } from '../../http/json-limits.js';
import type { HttpResponse } from '../../http/http.js';
import type { HttpPhase } from '../../http/errors.js';
import type { ResolveDeps } from '../types.js';
import { memoize } from './memo.js';
import { builtinProxyBases, namesRepository, proxiedUrl, proxyBases } from './proxy.js';
import { appWindow, clearAppWindow, detectRateLimit, recordAppWindow } from './rate-limit.js';

/** What to fetch and how. */
export interface MetadataRequest {
  url: string;
  /** Extra headers (Accept, the hub token); never sent to proxies. */
  headers?: Record<string, string>;
  /** The API base the token in `headers` belongs to; a redirect out of it drops the token. */
  credentialsUnder?: string | undefined;
  /** Send If-None-Match / If-Modified-Since from the store and replay the cached body on 304. */
  conditional: boolean;
  /** Hub requests only: the repository a proxied answer must name. */
  proxyFor?: { owner: string; repo: string } | undefined;
  /** Words for error messages, e.g. `latest release of owner/repo`. */
  what: string;
  /** What kind of fetch this is, named in HTTP errors (default api). */
  phase?: HttpPhase;
}

/** The JSON body, or the rate-limit window that prevented getting it. */
export type MetadataResult =
  | { kind: 'ok'; body: unknown; notModified: boolean; requests: number; via?: string | undefined }
  | { kind: 'rate_limited'; retryAt: Date; host: string; message: string; requests: number };

/**
 * Fetches JSON metadata once per run and URL (conditionally, through the URL-keyed cache, when
 * asked); a repeated URL reports zero requests. An open window of this app for this URL answers
 * without a request, unless `respect_rate_limits` is false or the run is forced; a limit opens (or
 * a real answer closes) this app's window. A fetch for no app (`deps.appWindows` false) skips windows.
 */
export async function fetchMetadata(
  req: MetadataRequest,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<MetadataResult> {
  const { ctx, store } = deps;
  const windows = deps.appWindows !== false;
  const window = windows ? appWindow(store, settings.name, req.url, ctx.now()) : undefined;
  if (window && settings.respect_rate_limits && !deps.force) {
    return {
      kind: 'rate_limited',
      retryAt: new Date(window.until),
      host: window.host ?? new URL(req.url).host,
      message: window.message,
      requests: 0,
    };
  }
  const { value, shared } = await memoize(deps.memo, `GET ${req.url}`, () => fetchOnce(req, settings, deps));
  const result = shared ? { ...value, requests: 0 } : value;
  if (!windows) return result;
  if (result.kind === 'rate_limited') {
    recordAppWindow(store, settings.name, req.url, result.host, {
      retryAt: result.retryAt,
      message: result.message,
    });
  } else {
    clearAppWindow(store, settings.name);
  }
  return result;
}

async function fetchOnce(
  req: MetadataRequest,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<MetadataResult> {
  const { ctx, store } = deps;
  const got = await conditionalGetJson(ctx.http, req.url, req.conditional ? store : undefined, ctx.now(), {
    headers: req.headers ?? {},
    signal: deps.signal,
    phase: req.phase ?? 'api',
    credentialsUnder: req.credentialsUnder,
  });
  const { res } = got;
  let requests = res.requests;
  if (got.kind === 'ok') return { kind: 'ok', body: got.body, notModified: got.notModified, requests };
  const limit = detectRateLimit(res.status, res.headers, ctx.now(), res.text);
  if (!limit) throw httpError(req, res);
  // The window names the host that answered with the limit, which a redirect may have changed.
  const host = new URL(res.url).host;
  const message = `${host} ${limit.message}`;
  if (req.proxyFor && settings.hub_proxy) {
    const proxied = await viaProxies(req, req.proxyFor, settings, deps);
    requests += proxied.requests;
    if (proxied.body !== undefined) {
      return { kind: 'ok', body: proxied.body, notModified: false, requests, via: proxied.via };
    }
    return {
      kind: 'rate_limited',
      retryAt: limit.retryAt,
      host,
      message: `${message}; ${proxied.summary}`,
      requests,
    };
  }
  return { kind: 'rate_limited', retryAt: limit.retryAt, host, message, requests };
}

interface ProxyAttempt {
  body?: unknown;
  via?: string;
  requests: number;
  summary: string;
}

async function viaProxies(
  req: MetadataRequest,
  repo: { owner: string; repo: string },
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<ProxyAttempt> {
  const bases = proxyBases(settings.hub_proxy_prefix, builtinProxyBases(deps.ctx.env, deps.proxyBuiltins));
  if (bases.length === 0) return { requests: 0, summary: 'no proxy configured' };
  const failures: string[] = [];
  let requests = 0;
  for (const base of bases) {
    try {
      // Only Accept-style headers go to a proxy: the token stays with the hub.
      const res = await request(deps.ctx.http, proxiedUrl(base, req.url), {
        headers: { accept: req.headers?.accept ?? 'application/json' },
        retries: 0,
        signal: deps.signal,
      });
      requests += res.requests;
      if (res.status < 200 || res.status >= 300) {
        failures.push(`${base}: HTTP ${res.status}`);
        continue;
      }
      const body = res.json();
      if (!namesRepository(body, repo.owner, repo.repo)) {
        failures.push(`${base}: answer does not name ${repo.owner}/${repo.repo}`);
        deps.ctx.emit({
          type: 'warning',
          app: settings.name,
          code: 'PROXY_WRONG_REPOSITORY',
          message: `proxy ${base} returned metadata for another repository; ignored`,
        });
        continue;
      }
      deps.ctx.emit({
        type: 'info',
        app: settings.name,
        message: `hub rate limited; metadata fetched via ${base}`,
      });
      return { body, via: base, requests, summary: '' };
    } catch (err) {
      failures.push(`${base}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { requests, summary: `every proxy failed (${failures.join('; ')})` };
}

function httpError(req: MetadataRequest, res: HttpResponse): KeeperError {
  const detail = apiMessage(res.text);
  const suffix = detail ? `: ${detail}` : '';
  if (res.status === 404) {
    return new KeeperError('FORGE_NOT_FOUND', `${req.what}: not found (HTTP 404 from ${req.url})${suffix}`, {
      hint: 'check the repository URL and that it has a published release',
      details: { status: 404, url: req.url },
    });
  }
  if (res.status === 401 || res.status === 403) {
    return new KeeperError('FORGE_FORBIDDEN', `${req.what}: HTTP ${res.status} from ${req.url}${suffix}`, {
      hint: 'check the token (HUB_TOKEN) and that the repository is accessible',
      details: { status: res.status, url: req.url },
    });
  }
  return new KeeperError('FORGE_HTTP_ERROR', `${req.what}: HTTP ${res.status} from ${req.url}${suffix}`, {
    details: { status: res.status, url: req.url },
  });
}

function apiMessage(text: string): string | undefined {
  try {
    const parsed = parseBoundedJson(text, '');
    if (typeof parsed === 'object' && parsed !== null && 'message' in parsed) {
      const message = parsed.message;
      if (typeof message === 'string') return message.slice(0, 200);
    }
  } catch {
    // not JSON: the status says enough
  }
  return undefined;
}
