/** Handles one request on either origin: record it, apply a fault, route it, send the answer. */
import type { Agent, IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRequest } from './api-request.js';
import { assetResponse } from './asset-handler.js';
import type { StoredAsset } from './body-source.js';
import type { FaultTable } from './faults.js';
import type { SimForges } from './forges.js';
import { PROXY_HOP_HEADER, proxyResponse, proxyTarget } from './proxy.js';
import { rateLimitFault } from './rate-limit.js';
import { sendResponse, sleep, type Outgoing } from './send-body.js';
import type { Fault, RecordedRequest, SimOrigin } from './types.js';

/** What one origin serves on its own. */
export interface OriginState {
  name: SimOrigin;
  url: string;
  assets: Map<string, StoredAsset>;
  redirects: Map<string, { target: string; status: number }>;
}

/** Everything shared by both origins. */
export interface SimState {
  hopToken: string;
  requests: RecordedRequest[];
  faults: FaultTable;
  /** In the order a request is offered to them (sim/forges.ts). */
  forges: SimForges;
  agent: Agent;
  stopSignal: AbortSignal;
  onRequest: ((request: RecordedRequest) => void) | undefined;
}

function text(status: number, message: string): Outgoing {
  return {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: Buffer.from(`${message}\n`),
  };
}

function faultResponse(fault: Fault, method: string): Outgoing | undefined {
  if (fault.headRefused && method === 'HEAD') {
    return { status: 405, headers: { allow: 'GET', 'content-type': 'text/plain; charset=utf-8' } };
  }
  if (fault.rateLimit) return rateLimitFault(fault.rateLimit.kind, fault.rateLimit.resetInSeconds);
  if (fault.status === undefined && fault.body === undefined) return undefined;
  const status = fault.status ?? 200;
  if (fault.body !== undefined) {
    const body = Buffer.isBuffer(fault.body) ? fault.body : Buffer.from(fault.body);
    const contentType =
      fault.contentType ??
      (Buffer.isBuffer(fault.body) ? 'application/octet-stream' : 'text/html; charset=utf-8');
    return { status, headers: { 'content-type': contentType }, body };
  }
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: Buffer.from(JSON.stringify({ message: `simulated status ${status}` })),
  };
}

async function route(
  state: SimState,
  origin: OriginState,
  req: IncomingMessage,
  method: string,
  path: string,
  fault: Fault | undefined,
  isHop: boolean,
  signal: AbortSignal,
): Promise<Outgoing> {
  const target = proxyTarget(path);
  if (target !== undefined)
    return proxyResponse(target, method, req.headers, state.agent, state.hopToken, signal);

  const q = path.indexOf('?');
  const pathname = q === -1 ? path : path.slice(0, q);
  const redirect = origin.redirects.get(pathname);
  if (redirect)
    return { status: redirect.status, headers: { location: redirect.target }, body: Buffer.alloc(0) };
  const asset = origin.assets.get(pathname);
  if (asset) return assetResponse(asset, method, req.headers, fault);

  const auth = req.headers.authorization;
  const api: ApiRequest = {
    method,
    pathname,
    query: new URLSearchParams(q === -1 ? '' : path.slice(q + 1)),
    headers: req.headers,
    origin: origin.url,
    clientKey: `${origin.name}|${isHop ? 'proxy' : auth ? `auth:${auth}` : 'anonymous'}`,
    authorized: auth !== undefined,
  };
  for (const forge of Object.values(state.forges)) {
    const answer = await forge.respond(api);
    if (answer) return answer;
  }
  return text(404, 'Not Found');
}

/** The request listener of one origin. */
export function handler(state: SimState, origin: OriginState) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = req.url ?? '/';
    const recorded: RecordedRequest = { origin: origin.name, method, path, headers: { ...req.headers } };
    state.requests.push(recorded);
    state.onRequest?.(recorded);
    req.resume();
    const closed = new AbortController();
    res.on('close', () => closed.abort());
    const signal = AbortSignal.any([closed.signal, state.stopSignal]);
    // The proxy is a different client: faults target what the code under test sends.
    const isHop = req.headers[PROXY_HOP_HEADER] === state.hopToken;
    const fault = isHop ? undefined : state.faults.take(method, path);

    void (async () => {
      try {
        if (fault?.latencyMs) await sleep(fault.latencyMs, signal);
        if (signal.aborted) return;
        const out =
          (fault && faultResponse(fault, method)) ??
          (await route(state, origin, req, method, path, fault, isHop, signal));
        if (signal.aborted) return;
        await sendResponse(res, out, method, fault, signal);
      } catch {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('sim: internal error\n');
        } else {
          res.destroy();
        }
      }
    })();
  };
}
