/**
 * What the transport does differently for a request that goes through a proxy: credentials are
 * kept out of requests the proxy can read, and a 407 answer becomes one clear error.
 */
import { KeeperError } from '../core/errors.js';
import { proxyFor, redactProxy } from './proxy-env.js';
import type { HttpSettings } from './settings.js';

const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'private-token', 'x-api-key']);

/**
 * The proxy a plain-http request to `target` goes through (undefined when direct or https: an
 * https request travels inside the tunnel, which the proxy cannot read).
 */
export function readableByProxy(http: HttpSettings, target: URL): URL | undefined {
  if (!http.proxy || target.protocol !== 'http:') return undefined;
  return proxyFor(http.proxy, target);
}

/** `headers` without the credential headers. */
export function withoutCredentials(
  headers: Record<string, string> | undefined,
): Record<string, string> | undefined {
  if (!headers) return headers;
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())),
  );
}

/**
 * Whether a response is the proxy refusing its credentials: a 407, or a 401 the proxy gave to
 * CONNECT (tinyproxy answers a wrong password so); a 401 after a tunnel is the origin's.
 */
export function isProxyAuthRefusal(status: number, tunnelStatus: number | undefined): boolean {
  return status === 407 || (tunnelStatus === 401 && status === 401);
}

/** PROXY_AUTH_REQUIRED naming the proxy (redacted) that refused `target`. */
export function proxyAuthRequired(http: HttpSettings, target: URL): KeeperError {
  const proxy = http.proxy ? proxyFor(http.proxy, target) : undefined;
  const shown = proxy ? redactProxy(proxy) : 'the proxy';
  const hadUser = proxy?.username !== undefined && proxy.username !== '';
  return new KeeperError(
    'PROXY_AUTH_REQUIRED',
    `${shown} refused ${target.host}: proxy authentication required (HTTP 407)`,
    {
      hint: hadUser
        ? 'the proxy rejected the user name or password in the proxy URL'
        : 'put the credentials in the proxy URL: https_proxy: http://user:password@proxy:3128 in config.yml',
      details: { proxy: shown, host: target.host },
    },
  );
}
