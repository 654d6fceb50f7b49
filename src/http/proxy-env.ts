/**
 * Which proxy a request goes through, by curl's rules (docs/network.md): the `*_proxy`
 * variables (lower case wins; `HTTP_PROXY` in upper case is ignored, as curl does, since a CGI
 * request header can set it), `no_proxy` exceptions, and the `config.yml` fields over them.
 * Pure functions of their inputs, so the tests and `doctor` read the same rules the client uses.
 */
import type * as Net from 'node:net';
import type { BlockList } from 'node:net';
import { KeeperError } from '../core/errors.js';

// node:net (and the socket modules it loads) only once a NO_PROXY list or a target is read: every
// command builds its HTTP settings, and `list` or `validate` never use them.
const net = (): typeof Net => process.getBuiltinModule('node:net');

/** The raw settings, from the environment or config.yml; `undefined` = not set. */
export interface ProxyInput {
  https_proxy?: string | undefined;
  http_proxy?: string | undefined;
  all_proxy?: string | undefined;
  no_proxy?: string | undefined;
}

/** Parsed settings: one proxy URL per target scheme and the exceptions. */
export interface ProxyRules {
  https: URL | undefined;
  http: URL | undefined;
  noProxy: NoProxy;
}

/** `all` for `no_proxy=*`, otherwise the parsed entries. */
type NoProxy = 'all' | { names: { suffix: string; port: number | undefined }[]; ips: BlockList | undefined };

const SCHEMES = new Set(['http:', 'https:', 'socks5:', 'socks5h:', 'socks4:', 'socks4a:']);
const MAX_VALUE = 8192;
const MAX_NO_PROXY_ENTRIES = 512;

/** Reads the proxy variables with curl's precedence; an empty lower-case value still wins. */
export function proxyInputFromEnv(env: NodeJS.ProcessEnv): ProxyInput {
  const pick = (lower: string, upper: string | undefined): string | undefined =>
    env[lower] ?? (upper === undefined ? undefined : env[upper]);
  return {
    https_proxy: pick('https_proxy', 'HTTPS_PROXY'),
    // Upper-case HTTP_PROXY is attacker-settable in CGI environments (the `Proxy:` header).
    http_proxy: pick('http_proxy', undefined),
    all_proxy: pick('all_proxy', 'ALL_PROXY'),
    no_proxy: pick('no_proxy', 'NO_PROXY'),
  };
}

/** Config fields over the environment, field by field (as npm and pnpm do). */
export function mergeProxyInput(config: ProxyInput, env: ProxyInput): ProxyInput {
  return {
    https_proxy: config.https_proxy ?? env.https_proxy,
    http_proxy: config.http_proxy ?? env.http_proxy,
    all_proxy: config.all_proxy ?? env.all_proxy,
    no_proxy: config.no_proxy ?? env.no_proxy,
  };
}

/** Parses the settings; a malformed proxy URL fails with PROXY_INVALID rather than going direct. */
export function parseProxyRules(input: ProxyInput): ProxyRules {
  const all = proxyUrl('all_proxy', input.all_proxy);
  // A set but empty scheme variable turns the proxy off for that scheme, as in curl.
  const https = input.https_proxy === undefined ? all : proxyUrl('https_proxy', input.https_proxy);
  const http = input.http_proxy === undefined ? all : proxyUrl('http_proxy', input.http_proxy);
  return { https, http, noProxy: parseNoProxy(input.no_proxy ?? '') };
}

/** True when no request goes through a proxy. */
export function isDirect(rules: ProxyRules): boolean {
  return rules.https === undefined && rules.http === undefined;
}

/** The proxy for `target`, or undefined for a direct connection. */
export function proxyFor(rules: ProxyRules, target: URL): URL | undefined {
  const proxy =
    target.protocol === 'https:' ? rules.https : target.protocol === 'http:' ? rules.http : undefined;
  if (!proxy || bypasses(rules.noProxy, target)) return undefined;
  return proxy;
}

/** The proxy URL as it may be shown: the password replaced by `***`, nothing after the port. */
export function redactProxy(proxy: URL): string {
  const user = proxy.username ? `${proxy.username}${proxy.password ? ':***' : ''}@` : '';
  return `${proxy.protocol}//${user}${proxy.host}`;
}

/** Replaces every credential-bearing proxy URL in `text` by its redacted form. */
export function redactProxyText(text: string, rules: ProxyRules): string {
  let out = text;
  for (const p of [rules.https, rules.http]) {
    if (!p?.password) continue;
    out = out.split(p.password).join('***');
  }
  return out;
}

/**
 * The effective settings as the variables a child (a resolver script's curl) reads: both cases,
 * since tools disagree on which they read (HTTP_PROXY excepted, see proxyInputFromEnv).
 */
export function proxyEnvironment(input: ProxyInput): Record<string, string> {
  const env: Record<string, string> = {};
  const set = (lower: string, upper: string | undefined, value: string | undefined): void => {
    if (value === undefined) return;
    env[lower] = value;
    if (upper) env[upper] = value;
  };
  set('https_proxy', 'HTTPS_PROXY', input.https_proxy);
  set('http_proxy', undefined, input.http_proxy);
  set('all_proxy', 'ALL_PROXY', input.all_proxy);
  set('no_proxy', 'NO_PROXY', input.no_proxy);
  return env;
}

function proxyUrl(field: string, raw: string | undefined): URL | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  // eslint-disable-next-line no-control-regex -- exactly the characters refused
  if (value.length > MAX_VALUE || /[\u0000-\u001f\u007f\s]/.test(value))
    throw invalid(field, 'has control characters or spaces');
  // curl reads a bare host[:port] as an http proxy.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw invalid(field, 'is not a URL');
  }
  if (!SCHEMES.has(url.protocol)) {
    throw invalid(
      field,
      `uses ${url.protocol.slice(0, -1)}, which is not a proxy scheme (http, https, socks5, socks5h, socks4, socks4a)`,
    );
  }
  if (!url.hostname) throw invalid(field, 'names no host');
  return url;
}

function invalid(field: string, why: string): KeeperError {
  // The value is never quoted: it may carry a password.
  return new KeeperError('PROXY_INVALID', `${field} ${why}`, {
    hint: 'set it to a URL such as http://proxy.example:3128 (docs/network.md)',
    exitCode: 2,
  });
}

function parseNoProxy(raw: string): NoProxy {
  const entries = raw
    .slice(0, MAX_VALUE)
    .split(/[,\s]+/)
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean)
    .slice(0, MAX_NO_PROXY_ENTRIES);
  if (entries.includes('*')) return 'all';
  const names: { suffix: string; port: number | undefined }[] = [];
  // Made at the first address: most lists name hosts only, and most runs have no list at all.
  let blocks: BlockList | undefined;
  const ips = (): BlockList => (blocks ??= new (net().BlockList)());
  for (const entry of entries) {
    if (addIp(ips, entry)) continue;
    const m = /^(.*?)(?::(\d{1,5}))?$/.exec(entry);
    const host = (m?.[1] ?? entry).replace(/^\*?\./, '').replace(/\.$/, '');
    if (!host) continue;
    const port = m?.[2] === undefined ? undefined : Number(m[2]);
    // An IP with a port keeps only its IP rule (curl ignores ports altogether).
    if (addIp(ips, host)) continue;
    names.push({ suffix: host, port });
  }
  return { names, ips: blocks };
}

// An IPv4/IPv6 literal (bracketed or not) or CIDR range; false when the entry is a name.
function addIp(ips: () => BlockList, entry: string): boolean {
  const m = /^\[?([0-9a-f:.]+)\]?(?:\/(\d{1,3}))?$/i.exec(entry);
  if (!m?.[1]) return false;
  const addr = m[1];
  const family = net().isIP(addr);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const prefix = m[2] === undefined ? undefined : Number(m[2]);
  if (prefix === undefined) ips().addAddress(addr, type);
  else if (prefix <= (family === 4 ? 32 : 128)) ips().addSubnet(addr, prefix, type);
  return true;
}

function bypasses(noProxy: NoProxy, target: URL): boolean {
  if (noProxy === 'all') return true;
  const host = target.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const family = net().isIP(host);
  if (family !== 0) return noProxy.ips?.check(host, family === 4 ? 'ipv4' : 'ipv6') ?? false;
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  return noProxy.names.some(
    (n) => (host === n.suffix || host.endsWith(`.${n.suffix}`)) && (n.port === undefined || n.port === port),
  );
}
