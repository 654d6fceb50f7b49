/**
 * A metadata proxy in the style of public hub proxies: `GET /proxy/<absolute url>` fetches that
 * URL and relays the answer. Only loopback targets are allowed, and Authorization never leaves.
 */
import { request, type Agent, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { Outgoing } from './send-body.js';

/** Path prefix under which every sim origin proxies. */
export const PROXY_PATH = '/proxy/';

/** Header the proxy adds to its own requests so the sim can tell a proxy hop from a client. */
export const PROXY_HOP_HEADER = 'x-sim-proxy-hop';

const LOOPBACK = new Set(['127.0.0.1', 'localhost']);
const HOP_BY_HOP = new Set([
  'authorization',
  'proxy-authorization',
  'host',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
]);

function text(status: number, message: string): Outgoing {
  return {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: Buffer.from(`${message}\n`),
  };
}

/** The absolute URL named by a proxy request path (raw or percent-encoded), or undefined. */
export function proxyTarget(pathWithQuery: string): string | undefined {
  if (!pathWithQuery.startsWith(PROXY_PATH)) return undefined;
  const raw = pathWithQuery.slice(PROXY_PATH.length);
  return /^https?%3A/i.test(raw) ? decodeURIComponent(raw) : raw;
}

function forwardHeaders(headers: IncomingHttpHeaders, hopToken: string): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  out[PROXY_HOP_HEADER] = hopToken;
  return out;
}

/** Fetches `target` for the client and turns the upstream answer into an Outgoing. */
export function proxyResponse(
  target: string,
  method: string,
  headers: IncomingHttpHeaders,
  agent: Agent,
  hopToken: string,
  signal: AbortSignal,
): Promise<Outgoing> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve(text(400, `proxy: not an absolute URL: ${target}`));
  }
  if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname)) {
    return Promise.resolve(text(400, `proxy: only http://127.0.0.1 and http://localhost targets: ${target}`));
  }
  if (method !== 'GET' && method !== 'HEAD') return Promise.resolve(text(405, 'proxy: GET and HEAD only'));

  return new Promise((resolve) => {
    const upstream = request(
      url,
      { method, headers: forwardHeaders(headers, hopToken), agent, signal },
      (res) => {
        const relayed: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'content-length')
            relayed[name] = value;
        }
        const status = res.statusCode ?? 502;
        const declared = Number(res.headers['content-length']);
        if (method === 'HEAD' || status === 304 || status === 204) {
          res.resume();
          if (method === 'HEAD' && res.headers['content-length'] !== undefined) {
            relayed['content-length'] = res.headers['content-length'];
          }
          resolve({ status, headers: relayed });
          return;
        }
        if (Number.isFinite(declared) && res.headers['content-length'] !== undefined) {
          resolve({ status, headers: relayed, body: { length: declared, chunks: res } });
          return;
        }
        // Without a declared length (chunked upstream) the metadata is small: collect it.
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status, headers: relayed, body: Buffer.concat(parts) }));
        res.on('error', () => resolve(text(502, 'proxy: upstream body failed')));
      },
    );
    upstream.on('error', (err) => resolve(text(502, `proxy: upstream failed: ${err.message}`)));
    upstream.end();
  });
}
