import assert from 'node:assert/strict';
import { chown, lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generatedSha256 } from '../../../sim/index.js';
import { download, type DownloadRequest } from '../../../src/transfer/download/index.js';
import { partialDirFor } from '../../../src/transfer/download/partial-store.js';
import { fileSha256, PREFIX, rangesFor, removeTestTemps, request, setUp, type Bench } from './helpers.js';

const SIZE = 24 * 1024 * 1024 + 4321;
const MiB = 1024 * 1024;

// Bytes asked for by `bytes=a-b` / `bytes=a-` headers of a file of `size` bytes.
function rangeBytes(headers: string[], size: number): number {
  let n = 0;
  for (const h of headers) {
    const m = /^bytes=(\d+)-(\d*)$/.exec(h);
    assert.ok(m, `unexpected Range header ${h}`);
    const last = m[2] === '' ? size - 1 : Number(m[2]);
    n += last - Number(m[1]) + 1;
  }
  return n;
}

// Runs a download and stops it (like Ctrl-C) once `fraction` of the file is on disk.
async function stopAt(req: DownloadRequest, fraction: number): Promise<void> {
  const ctl = new AbortController();
  await assert.rejects(
    download({
      ...req,
      signal: ctl.signal,
      onProgress: (n) => {
        if (n >= fraction * SIZE) ctl.abort();
      },
    }),
    (err: Error & { code?: string }) => err.code === 'DOWNLOAD_ABORTED',
  );
}

void describe('download: resume across runs', () => {
  let b: Bench;
  let cache: string;
  before(async () => {
    b = await setUp();
    cache = join(b.dir, 'cache');
  });
  after(async () => b.close());

  for (const segmented of [false, true]) {
    void test(`${segmented ? 'segmented' : 'plain'}: stopped at 60%, the next run fetches only the rest`, async () => {
      const path = `/resume/${segmented ? 'seg' : 'plain'}.AppImage`;
      const url = b.sim.putAsset(path, { size: SIZE, seed: 3 });
      const req = request(b.dir, url, { segmented, connections: 4, minSegmentBytes: MiB, resumeDir: cache });
      await stopAt(req, 0.6);
      const slot = partialDirFor(cache, url);
      const sidecar = JSON.parse(await readFile(join(slot, 'state.json'), 'utf8')) as { ranges: number[][] };
      assert.ok(sidecar.ranges.length > 0, 'the sidecar records completed ranges');
      const temps = (await readdir(b.dir)).filter((n) => n.startsWith(PREFIX));
      assert.deepEqual(temps, [], 'nothing of the stopped run is left in the destination');

      b.sim.clearRequests();
      const r = await download(req);
      try {
        assert.equal(r.sha256, generatedSha256(SIZE, 3));
        assert.equal(await fileSha256(r.path), generatedSha256(SIZE, 3));
        assert.ok(r.resumedBytes >= 0.5 * SIZE, `resumed ${r.resumedBytes} bytes`);
        const ranges = rangesFor(b.sim, path);
        const ifRange = b.sim.requests.filter((q) => q.path === path && q.headers.range !== undefined);
        assert.ok(
          ifRange.every((q) => typeof q.headers['if-range'] === 'string' && q.headers['if-range'] !== ''),
        );
        assert.ok(
          SIZE - r.resumedBytes <= 0.45 * SIZE,
          `refetched ${SIZE - r.resumedBytes} of ${SIZE} bytes`,
        );
        // Range spans count twice the tails work stealing cuts off a range already asked for.
        const asked = rangeBytes(ranges, SIZE);
        assert.ok(asked <= (segmented ? 0.6 : 0.45) * SIZE, `asked again for ${asked} of ${SIZE} bytes`);
        await assert.rejects(lstat(slot), 'the slot is cleared after success');
      } finally {
        await removeTestTemps(b.dir);
      }
    });
  }

  void test('a changed file under the same URL (new ETag) starts over with the new bytes', async () => {
    const path = '/resume/changed.AppImage';
    const url = b.sim.putAsset(path, { size: SIZE, seed: 5 }, { etag: '"v1"' });
    const req = request(b.dir, url, {
      segmented: true,
      connections: 4,
      minSegmentBytes: MiB,
      resumeDir: cache,
    });
    await stopAt(req, 0.6);
    b.sim.putAsset(path, { size: SIZE, seed: 6 }, { etag: '"v2"' });
    b.sim.clearRequests();
    const r = await download(req);
    try {
      assert.equal(r.resumedBytes, 0);
      assert.equal(await fileSha256(r.path), generatedSha256(SIZE, 6));
      const stale = b.sim.requests.filter((q) => q.headers['if-range'] === '"v1"');
      assert.deepEqual(stale, [], 'nothing asked for with the old validator');
    } finally {
      await removeTestTemps(b.dir);
    }
  });

  void test('a resume answered with 200 (If-Range did not match) starts over and reuses nothing', async () => {
    const path = '/resume/ignored.AppImage';
    const url = b.sim.putAsset(path, { size: SIZE, seed: 9 });
    const req = request(b.dir, url, { resumeDir: cache });
    await stopAt(req, 0.6);
    b.sim.fault(path, { ignoreRange: true });
    const r = await download(req);
    try {
      b.sim.clearFaults();
      assert.ok(rangesFor(b.sim, path).length > 0, 'a resume was tried');
      assert.equal(r.resumedBytes, 0);
      assert.equal(await fileSha256(r.path), generatedSha256(SIZE, 9));
    } finally {
      await removeTestTemps(b.dir);
    }
  });

  void test('a damaged or hostile partial is removed, never followed', async () => {
    const path = '/resume/hostile.AppImage';
    const url = b.sim.putAsset(path, { size: SIZE, seed: 7 });
    const slot = partialDirFor(cache, url);
    const outside = join(b.dir, 'outside');
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, 'data'), 'precious');
    await mkdir(join(cache, 'partials'), { recursive: true });
    // The server's own validator: a planted slot is refused for its damage, not for naming another version.
    const etag = (await fetch(url, { method: 'HEAD' })).headers.get('etag') ?? '';
    const plantSlot = async (data: Buffer | 'link', ranges: number[][]): Promise<void> => {
      await mkdir(slot, { recursive: true });
      if (data === 'link') await symlink(join(outside, 'data'), join(slot, 'data'));
      else await writeFile(join(slot, 'data'), data);
      await writeFile(join(slot, 'state.json'), JSON.stringify({ url, validator: etag, size: SIZE, ranges }));
    };
    const cases: Array<[string, () => Promise<void>]> = [
      ['slot is a symlink', () => symlink(outside, slot)],
      [
        'sidecar is a symlink',
        async () => {
          await mkdir(slot, { recursive: true });
          await symlink(join(outside, 'data'), join(slot, 'state.json'));
        },
      ],
      ['data shorter than the sidecar claims', () => plantSlot(Buffer.from('x'), [[0, 1000]])],
      ['data is a symlink', () => plantSlot('link', [[0, 8]])],
      [
        'ranges out of order',
        () =>
          plantSlot(Buffer.alloc(3000), [
            [2000, 3000],
            [0, 1000],
          ]),
      ],
      [
        'sidecar is garbage',
        async () => {
          await mkdir(slot, { recursive: true });
          await writeFile(join(slot, 'state.json'), '{"url": 1, "ranges": [[5, 2]]');
        },
      ],
    ];
    // Only root can hand a folder to another user.
    if (process.getuid?.() === 0) {
      cases.push([
        'slot belongs to another user',
        async () => {
          await plantSlot(Buffer.alloc(1000), [[0, 1000]]);
          await chown(slot, 65534, 65534);
        },
      ]);
    }
    for (const [name, plant] of cases) {
      await plant();
      b.sim.clearRequests();
      const r = await download(request(b.dir, url, { resumeDir: cache }));
      try {
        assert.equal(await fileSha256(r.path), generatedSha256(SIZE, 7), name);
        assert.equal(r.resumedBytes, 0, name);
        assert.deepEqual(rangesFor(b.sim, path), [], `${name}: nothing resumed`);
        assert.equal(await readFile(join(outside, 'data'), 'utf8'), 'precious', `${name}: not followed`);
        assert.deepEqual(await readdir(outside), ['data'], name);
      } finally {
        await removeTestTemps(b.dir);
      }
    }
  });
});
