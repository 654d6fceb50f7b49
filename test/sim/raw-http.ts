/** A minimal node:http client for the sim tests: no pooling, no redirects, reports truncated bodies. */
import { request, type IncomingHttpHeaders } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** False when the connection ended before the whole message arrived. */
  complete: boolean;
}

export interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Resolve early, with complete=false, once this many body bytes arrived. */
  resolveAfterBytes?: number;
}

/** Sends one request on a fresh connection and collects the answer. */
export function raw(url: string, options: RawOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const parts: Buffer[] = [];
        let received = 0;
        let settled = false;
        const finish = (complete: boolean): void => {
          if (settled) return;
          settled = true;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(parts),
            complete,
          });
        };
        res.on('data', (chunk: Buffer) => {
          parts.push(chunk);
          received += chunk.length;
          if (options.resolveAfterBytes !== undefined && received >= options.resolveAfterBytes) {
            finish(false);
            req.destroy();
          }
        });
        res.on('end', () => finish(res.complete));
        res.on('error', () => finish(false));
        res.on('close', () => finish(res.complete));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** GETs JSON and parses it. */
export async function json(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: unknown }> {
  const res = await raw(url, { headers });
  return {
    status: res.status,
    headers: res.headers,
    body: res.body.length ? JSON.parse(res.body.toString('utf8')) : undefined,
  };
}

/** Splits a multipart/byteranges body into its parts' Content-Range and bytes. */
export function parseMultipart(body: Buffer, contentType: string): { range: string; data: Buffer }[] {
  const boundary = /boundary=([^;]+)/.exec(contentType)?.[1];
  if (!boundary) throw new Error(`no boundary in ${contentType}`);
  const text = body.toString('latin1');
  const out: { range: string; data: Buffer }[] = [];
  const pieces = text.split(`--${boundary}`);
  for (const piece of pieces.slice(1)) {
    if (piece.startsWith('--')) break;
    const headEnd = piece.indexOf('\r\n\r\n');
    const head = piece.slice(0, headEnd);
    const range = /Content-Range: (.+)/i.exec(head)?.[1]?.trim() ?? '';
    const data = piece.slice(headEnd + 4, piece.length - 2);
    out.push({ range, data: Buffer.from(data, 'latin1') });
  }
  return out;
}
