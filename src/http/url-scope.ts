/**
 * The credential rule of the HTTP client: credentials (the hub token, cookies) go only to URLs
 * under the base they were configured for, re-checked at every redirect hop, and userinfo in a
 * URL (`https://user:pass@host/`) is never turned into an Authorization header.
 */

const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/**
 * True when `url` is on the origin of `base` and its path is the base path or below it on a
 * segment boundary: `/api/v3/repos` is under `/api/v3`, `/api/v3evil` and `/uploads` are not.
 * Both are parsed, so case, default ports and dot segments cannot disguise a URL.
 */
export function isUnderBase(url: string, base: string): boolean {
  let target: URL;
  let root: URL;
  try {
    target = new URL(url);
    root = new URL(base);
  } catch {
    return false;
  }
  if (target.origin !== root.origin) return false;
  const prefix = root.pathname.replace(/\/+$/, '');
  return prefix === '' || target.pathname === prefix || target.pathname.startsWith(`${prefix}/`);
}

/** `headers` without credentials unless `url` lies under `scope`. */
export function credentialsFor(
  url: string,
  scope: string,
  headers: Record<string, string>,
): Record<string, string> {
  return isUnderBase(url, scope) ? headers : withoutCredentials(headers);
}

/** `headers` without Authorization, Cookie and Proxy-Authorization, whatever their case. */
export function withoutCredentials(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) out[name] = value;
  }
  return out;
}

/**
 * `url` without userinfo: node's client would send it as Basic credentials to whatever host
 * the URL (or a redirect) names.
 */
export function withoutUserinfo(url: URL): URL {
  if (url.username === '' && url.password === '') return url;
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy;
}
