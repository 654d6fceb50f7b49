import { parseContentRange } from '../ranges/content-range.js';
import { headerValue } from '../../http/headers.js';
import { discardBody, networkError, openGet, type HttpSession } from '../zsync/http.js';
import { blockmapError } from './errors.js';
import { decodeBlockMap, tailJsonLength, TRAILER_BYTES, type BlockMap } from './format.js';

/** The new file's block map with the raw tail bytes (they are written into the result as they are). */
export interface RemoteBlockMap {
  map: BlockMap;
  /** The deflated JSON and the 4-byte length: the last `map.tailSize` bytes of the file. */
  tail: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

/** What the release says of the new file, checked before its block map is read. */
export interface RemoteFileBounds {
  /** The asset's size as the release states it. */
  expectedSize?: number | undefined;
  /** max_asset_size. */
  maxBytes?: number | undefined;
}

/**
 * Reads the block map at the end of the file at `url` with two range requests: `bytes=-4` for the
 * length (and, from its Content-Range, the file size), then the deflated JSON. The size is held to
 * `bounds` first, since it sets how much JSON the map may inflate to. A file without a valid block
 * map throws `BLOCKMAP_NONE_REMOTE`; a server without ranges `BLOCKMAP_NO_RANGES`.
 */
export async function fetchRemoteBlockMap(
  session: HttpSession,
  url: string,
  bounds: RemoteFileBounds = {},
): Promise<RemoteBlockMap> {
  const first = await rangeBody(session, url, `bytes=-${TRAILER_BYTES}`, TRAILER_BYTES);
  const fileSize = first.total;
  checkFileSize(first.url, fileSize, bounds);
  const length = tailJsonLength(first.body, fileSize);
  if (length === undefined || first.first !== fileSize - TRAILER_BYTES)
    throw blockmapError('NONE_REMOTE', `${first.url} carries no block map`);
  const start = fileSize - TRAILER_BYTES - length;
  const json = await rangeBody(session, first.url, `bytes=${start}-${fileSize - TRAILER_BYTES - 1}`, length);
  if (json.total !== fileSize || json.first !== start)
    throw blockmapError('TARGET_CHANGED', `${json.url} changed size while its block map was read`);
  const map = decodeBlockMap(json.body, fileSize);
  if ('refused' in map)
    throw blockmapError('NONE_REMOTE', `${json.url} carries no block map (${map.refused})`);
  return { map, tail: Buffer.concat([json.body, first.body]), url: json.url };
}

function checkFileSize(url: string, fileSize: number, bounds: RemoteFileBounds): void {
  if (bounds.expectedSize !== undefined && fileSize !== bounds.expectedSize)
    throw blockmapError(
      'TARGET_CHANGED',
      `${url} is ${fileSize} bytes but the release's asset has ${bounds.expectedSize}`,
    );
  if (bounds.maxBytes !== undefined && fileSize > bounds.maxBytes)
    throw blockmapError(
      'TARGET_TOO_LARGE',
      `${url} is ${fileSize} bytes, over max_asset_size (${bounds.maxBytes})`,
    );
}

/** One single-range GET whose 206 body (at most `maxBytes`) is read into memory. */
async function rangeBody(
  session: HttpSession,
  url: string,
  range: string,
  maxBytes: number,
): Promise<{ url: string; first: number; total: number; body: Buffer }> {
  const res = await openGet(session, url, { range });
  if (res.status === 200) {
    discardBody(res.body);
    throw blockmapError('NO_RANGES', `${res.url} ignores range requests (answered 200 with the whole file)`, {
      details: { url: res.url },
    });
  }
  if (res.status === 416) {
    discardBody(res.body);
    throw blockmapError('NONE_REMOTE', `${res.url} is too short to carry a block map`);
  }
  if (res.status !== 206) {
    discardBody(res.body);
    throw blockmapError('TARGET_HTTP', `range request to ${res.url}: HTTP ${res.status}`, {
      details: { url: res.url, status: res.status },
    });
  }
  const cr = parseContentRange(headerValue(res.headers, 'content-range'));
  const want = cr ? cr.last - cr.first + 1 : 0;
  if (!cr || cr.total === undefined || want > maxBytes) {
    discardBody(res.body);
    throw blockmapError('RANGE_INVALID', `${res.url} answered ${range} with an unusable Content-Range`);
  }
  const body = Buffer.alloc(want);
  let got = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      session.bytesFetched += chunk.length;
      if (got + chunk.length > want) {
        discardBody(res.body);
        throw blockmapError('RANGE_INVALID', `${res.url} sent more than the range it announced`);
      }
      chunk.copy(body, got);
      got += chunk.length;
    }
  } catch (err) {
    throw networkError(err, res.url, session.signal);
  }
  if (got !== want) throw blockmapError('RANGE_INVALID', `${res.url} ended the range early`);
  return { url: res.url, first: cr.first, total: cr.total, body };
}
