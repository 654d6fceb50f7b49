/**
 * What the transport does differently for a request that goes through a proxy: credentials are
 * kept out of requests the proxy can read, and a 407 answer becomes one clear error.
 */
import { KeeperError } from '../core/errors.js';
import { proxyFor, redactProxy } from './proxy-env.js';
import type { HttpSettings } from './settings.js';

/**
 * The request option that carries the transport's give-up signal to a tunnelling proxy agent
 * (node's http strips `signal` before the agent sees the options): see proxy-agents.ts.
 */
export const GIVE_UP_OPTION = 'keeperGiveUp';

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

// The socks library's messages (socks/build/common/constants.js) when a SOCKS5 server turns down
// the user and password, or offers only an authentication method we were given nothing for.
const SOCKS_AUTH_REFUSALS = [
  'Socks5 Authentication failed',
  'Received invalid Socks5 initial handshake (no accepted authentication type)',
];

/**
 * Whether a request error is a SOCKS5 server refusing our credentials (or their absence). Matched
 * by the library's message and the `options` its SocksClientError carries (its `name` is plain
 * "Error"), so the transport need not load the SOCKS code.
 */
export function isSocksAuthRefusal(err: unknown): boolean {
  if (!(err instanceof Error) || typeof (err as { options?: unknown }).options !== 'object') return false;
  return SOCKS_AUTH_REFUSALS.some((text) => err.message.startsWith(text));
}

/** PROXY_AUTH_REQUIRED naming the proxy (redacted) that refused `target`. */
export function proxyAuthRequired(http: HttpSettings, target: URL): KeeperError {
  const proxy = http.proxy ? proxyFor(http.proxy, target) : undefined;
  const shown = proxy ? redactProxy(proxy) : 'the proxy';
  const hadUser = proxy?.username !== undefined && proxy.username !== '';
  const socks = proxy?.protocol.startsWith('socks') === true;
  return new KeeperError(
    'PROXY_AUTH_REQUIRED',
    `${shown} refused ${target.host}: proxy authentication required (${socks ? 'SOCKS5' : 'HTTP 407'})`,
    {
      hint: hadUser
        ? 'the proxy rejected the user name or password in the proxy URL'
        : 'put the credentials in the proxy URL: https_proxy: http://user:password@proxy:3128 in config.yml',
      details: { proxy: shown, host: target.host },
    },
  );
}

/**
 * PROXY_REFUSED: the proxy answered for `target` itself with `status` (a CONNECT it refused, or its
 * own error page), so the forge never saw the request and its status must not be reported as the
 * forge's. The proxy is named with its password redacted.
 */
export function proxyRefused(http: HttpSettings, target: URL, status: number, reason: string): KeeperError {
  const proxy = http.proxy ? proxyFor(http.proxy, target) : undefined;
  const shown = proxy ? redactProxy(proxy) : 'the proxy';
  const what = reason ? `HTTP ${status} ${reason}` : `HTTP ${status}`;
  return new KeeperError(
    'PROXY_REFUSED',
    `${shown} refused to reach ${target.host}: ${what} (the proxy's answer, not the server's)`,
    {
      hint:
        status >= 500
          ? 'the proxy could not reach the server: check its upstream connection, or set no_proxy for this host if it is reachable directly'
          : 'the proxy does not allow this host or port: ask its administrator, or set no_proxy for this host if it is reachable directly',
      details: { proxy: shown, host: target.host, status },
    },
  );
}

// Proxies that name themselves in `Server:` on the error pages they write (no `Via:` there, since
// nothing was forwarded). A forwarded answer from the origin keeps the origin's own Server header.
const PROXY_SERVERS = /^(tinyproxy|squid|privoxy|cntlm|px|polipo|ziproxy|apache traffic server|ats)\b/i;

/**
 * Whether a plain-http error response came from the proxy rather than the origin: RFC 9209's
 * `Proxy-Status` naming an error, Squid's `X-Squid-Error`, or a known proxy's `Server:` on a
 * response that no hop forwarded (`Via` absent). Otherwise the answer is taken as the origin's.
 */
export function isProxyOwnAnswer(headers: Record<string, string | string[] | undefined>): boolean {
  const one = (name: string): string => {
    const v = headers[name];
    return (Array.isArray(v) ? v.join(', ') : (v ?? '')).slice(0, 1024);
  };
  if (/;\s*error\s*=/i.test(one('proxy-status'))) return true;
  if (one('x-squid-error') !== '') return true;
  return one('via') === '' && PROXY_SERVERS.test(one('server').trim());
}
