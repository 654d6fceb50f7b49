/**
 * The running simulator's admin endpoint, so `npm run sim` can publish a new release while a user
 * tries the tool against it. It listens on 127.0.0.1 only, on its own port, and accepts only
 * `POST /publish` with `Content-Type: application/octet-stream`: a web page cannot send that
 * without a CORS preflight, which is refused, so a browser tab cannot publish through it.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sim } from './types.js';

/** Largest asset the admin endpoint accepts (it is held in memory). */
export const ADMIN_MAX_BYTES = 1 << 30;

const NAME = /^[A-Za-z0-9._-]{1,100}$/;
const TAG = /^[A-Za-z0-9._+-]{1,100}$/;

/** A running admin endpoint. */
export interface SimAdmin {
  url: string;
  stop(): Promise<void>;
}

function reply(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(`${JSON.stringify(value)}\n`);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > ADMIN_MAX_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * `POST /publish?repo=OWNER/REPO&tag=TAG&name=ASSET` with the asset as body: serves it at the
 * hub's download path and makes it the newest hub release of OWNER/REPO (with its sha256 digest).
 */
async function publish(sim: Sim, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const q = new URL(req.url ?? '/', 'http://admin').searchParams;
  const [owner, repo, ...more] = (q.get('repo') ?? '').split('/');
  const tag = q.get('tag') ?? '';
  const name = q.get('name') ?? '';
  if (
    !owner ||
    !repo ||
    more.length ||
    !NAME.test(owner) ||
    !NAME.test(repo) ||
    !TAG.test(tag) ||
    !NAME.test(name)
  ) {
    reply(res, 400, { error: 'need repo=OWNER/REPO, tag=TAG and name=ASSET (letters, digits, . _ - only)' });
    return;
  }
  const body = await readBody(req);
  if (!body) {
    reply(res, 413, { error: `the asset is over ${ADMIN_MAX_BYTES} bytes` });
    return;
  }
  const url = sim.putAsset(`/${owner}/${repo}/releases/download/${tag}/${name}`, body);
  const digest = `sha256:${createHash('sha256').update(body).digest('hex')}`;
  sim.hub.setLatest(owner, repo, { tag, assets: [{ name, url, size: body.length, digest }] });
  reply(res, 201, { repo: `${owner}/${repo}`, tag, url, size: body.length, digest });
}

/** Starts the admin endpoint of `sim` on 127.0.0.1 (`port` 0 = any free port). */
export async function startAdmin(sim: Sim, port = 0): Promise<SimAdmin> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'POST' || path !== '/publish') {
      reply(res, 404, { error: 'only POST /publish' });
      return;
    }
    if (req.headers['content-type'] !== 'application/octet-stream') {
      reply(res, 415, { error: 'Content-Type must be application/octet-stream' });
      return;
    }
    publish(sim, req, res).catch((err: unknown) => reply(res, 500, { error: String(err) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
