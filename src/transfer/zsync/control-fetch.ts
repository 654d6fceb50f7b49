import { zsyncError } from './errors.js';
import { headerValue } from '../../http/headers.js';
import { discardBody, networkError, openGet, type HttpSession } from './http.js';

/** Larger than any real control file (a 4 GiB target at 2 KiB blocks needs ~40 MiB). */
const MAX_CONTROL_BYTES = 64 * 1024 * 1024;

/** Downloads a `.zsync` control file into memory (bounded), counting its bytes in the session. */
export async function fetchControlFile(session: HttpSession, url: string): Promise<Buffer> {
  const res = await openGet(session, url, {});
  if (res.status !== 200) {
    discardBody(res.body);
    throw zsyncError('CONTROL_HTTP', `zsync control file ${url}: HTTP ${res.status}`, {
      details: { url, status: res.status },
    });
  }
  const declared = Number(headerValue(res.headers, 'content-length') ?? '0');
  if (declared > MAX_CONTROL_BYTES) {
    discardBody(res.body);
    throw zsyncError('CONTROL_INVALID', `zsync control file ${url} is too large (${declared} bytes)`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      total += chunk.length;
      session.bytesFetched += chunk.length;
      if (total > MAX_CONTROL_BYTES) {
        discardBody(res.body);
        throw zsyncError(
          'CONTROL_INVALID',
          `zsync control file ${url} is larger than ${MAX_CONTROL_BYTES} bytes`,
        );
      }
      chunks.push(chunk);
    }
  } catch (err) {
    throw networkError(err, url, session.signal);
  }
  return Buffer.concat(chunks, total);
}
