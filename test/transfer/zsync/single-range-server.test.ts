import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { zsyncDownload } from '../../../src/transfer/zsync/index.js';
import { leftovers, pseudoRandom, scatterChanges, tempDir, writeFiles, zsyncmake } from './helpers.js';
import { createHttpSettings } from '../../../src/http/settings.js';

const PREFIX = '.appimage-keeper-single-';

/**
 * A server that never sends multipart: for `Range: a-b,c-d,...` it answers 206 with the first
 * range only, as some CDNs do. Records every Range header it gets.
 */
function singleRangeServer(files: Map<string, Buffer>, seen: string[]): Server {
  return createServer((req, res) => {
    const body = files.get(req.url ?? '');
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    const range = req.headers.range;
    if (range === undefined) {
      res.writeHead(200, { 'content-length': body.length }).end(body);
      return;
    }
    seen.push(range);
    const m = /^bytes=(\d+)-(\d+)/.exec(range);
    const first = Number(m?.[1]);
    const last = Math.min(Number(m?.[2]), body.length - 1);
    res.writeHead(206, {
      'content-range': `bytes ${first}-${last}/${body.length}`,
      'content-length': last - first + 1,
    });
    res.end(body.subarray(first, last + 1));
  });
}

void describe('zsyncDownload against a server without multipart answers', () => {
  let server: Server;
  let base: string;
  let dir: string;
  let cleanup: () => Promise<void>;
  const seen: string[] = [];
  const target = pseudoRandom(400_000, 31);

  before(async () => {
    ({ dir, cleanup } = await tempDir());
    await writeFiles(dir, { 'app.AppImage': target, 'seed.AppImage': scatterChanges(target, 9) });
    const files = new Map([
      ['/app.AppImage', target],
      ['/app.AppImage.zsync', await zsyncmake(join(dir, 'app.AppImage'), 'app.AppImage')],
    ]);
    server = singleRangeServer(files, seen);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await cleanup();
  });

  void test('falls back to one range per request and still rebuilds the exact file', async () => {
    const r = await zsyncDownload({
      controlUrl: `${base}/app.AppImage.zsync`,
      http: createHttpSettings(),
      seedPath: join(dir, 'seed.AppImage'),
      destDir: dir,
      tempPrefix: PREFIX,
      stallTimeoutMs: 5000,
    });
    try {
      assert.ok((await readFile(r.path)).equals(target));
      // First request asks for all 9 ranges and gets one; then the other 8 come one by one.
      assert.equal(seen[0]!.split(',').length, 9);
      assert.equal(seen.length, 9);
      for (const h of seen.slice(1)) assert.equal(h.split(',').length, 1, h);
      assert.equal(r.requests, 10);
    } finally {
      await rm(r.path, { force: true });
    }
    assert.deepEqual(await leftovers(dir, PREFIX), []);
  });
});
