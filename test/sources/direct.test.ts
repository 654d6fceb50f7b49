import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSim } from '../helpers/sim-suite.js';
import type { CheckMethod } from '../../src/config/types.js';
import { KeeperError } from '../../src/core/errors.js';
import { resolveApp } from '../../src/sources/resolve.js';
import type { Resolution, ResolveOutcome } from '../../src/sources/types.js';
import { header, makeDeps, makeSettings } from './support.js';
import { sha256 } from '../helpers/sha256.js';

function resolved(outcome: ResolveOutcome): Resolution {
  assert.equal(outcome.kind, 'resolved', JSON.stringify(outcome));
  if (outcome.kind !== 'resolved') throw new Error('unreachable');
  return outcome.resolution;
}

const direct = (url: string, check_method: CheckMethod) =>
  makeSettings({ strategy: 'direct', url, check_method }, { name: 'vendor' });

void describe('direct strategy against the sim', () => {
  const sim = useSim('requests-and-faults');

  void test('etag: identity is the ETag, version a short hash, HEAD only', async () => {
    const url = sim.putAsset('/latest/Vendor.AppImage', Buffer.from('v1 bytes'), { etag: '"abc123"' });
    const r = resolved(await resolveApp(direct(url, 'etag'), makeDeps()));
    assert.equal(r.identity, '"abc123"');
    const hash = sha256('"abc123"').slice(0, 8);
    assert.equal(r.version, `etag-${hash}`);
    assert.equal(r.url, url);
    assert.equal(r.assetName, 'Vendor.AppImage');
    assert.equal(r.size, 'v1 bytes'.length);
    assert.equal(r.validator, '"abc123"');
    assert.deepEqual(
      sim.requests.map((q) => q.method),
      ['HEAD'],
    );
  });

  void test('last-modified: identity is the header, version the date', async () => {
    const when = new Date('2026-03-04T05:06:07Z');
    const url = sim.putAsset('/latest/lm.AppImage', Buffer.from('lm'), { lastModified: when, etag: false });
    const r = resolved(await resolveApp(direct(url, 'last-modified'), makeDeps()));
    assert.equal(r.identity, when.toUTCString());
    assert.equal(r.version, '2026-03-04');
    assert.equal(r.validator, when.toUTCString());
  });

  void test('a missing header is DIRECT_NO_HEADER naming header and URL', async () => {
    const url = sim.putAsset('/latest/noetag.AppImage', Buffer.from('x'), { etag: false });
    await assert.rejects(resolveApp(direct(url, 'etag'), makeDeps()), (err: unknown) => {
      assert.ok(err instanceof KeeperError);
      assert.equal(err.code, 'DIRECT_NO_HEADER');
      assert.match(err.message, /ETag/);
      assert.ok(err.message.includes(url));
      return true;
    });
  });

  void test('HEAD refused: falls back to a one-byte ranged GET', async () => {
    const url = sim.putAsset('/latest/nohead.AppImage', Buffer.from('0123456789'), { etag: '"r1"' });
    sim.fault('/latest/nohead.AppImage', { headRefused: true });
    const r = resolved(await resolveApp(direct(url, 'etag'), makeDeps()));
    assert.equal(r.identity, '"r1"');
    assert.equal(r.size, 10);
    const get = sim.requests.find((q) => q.method === 'GET');
    assert.equal(header(get?.headers ?? {}, 'range'), 'bytes=0-0');
  });

  void test('redirects are followed and the final URL is the download URL', async () => {
    const target = sim.putSecondAsset('/cdn/Vendor-2.0.AppImage', Buffer.from('v2'), { etag: '"v2"' });
    sim.redirect('/download/latest', target, 302);
    const r = resolved(await resolveApp(direct(`${sim.url}/download/latest`, 'etag'), makeDeps()));
    assert.equal(r.url, target);
    assert.equal(r.assetName, 'Vendor-2.0.AppImage');
  });

  void test('a 404 is DIRECT_HTTP_ERROR', async () => {
    await assert.rejects(
      resolveApp(direct(`${sim.url}/missing.AppImage`, 'etag'), makeDeps()),
      (err: unknown) => err instanceof KeeperError && err.code === 'DIRECT_HTTP_ERROR',
    );
  });

  void test('a 429 opens a rate-limit window', async () => {
    const url = sim.putAsset('/latest/busy.AppImage', Buffer.from('b'), { etag: '"b"' });
    sim.fault('/latest/busy.AppImage', {
      rateLimit: { kind: '429-retry-after-seconds', resetInSeconds: 300 },
    });
    const outcome = await resolveApp(direct(url, 'etag'), makeDeps());
    assert.equal(outcome.kind, 'rate_limited');
  });
});
