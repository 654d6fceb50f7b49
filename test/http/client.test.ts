/**
 * The one HTTP client: every kind of fetch (api, download, range) goes through the run's
 * settings (`ctx.http`) and the one redirect loop, with one credential rule and one error family.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useSim } from '../helpers/sim-suite.js';
import { request } from '../../src/http/http.js';
import { createHttpSettings, type HttpSettings } from '../../src/http/settings.js';
import { download } from '../../src/transfer/download/index.js';
import { newSession } from '../../src/transfer/ranges/session.js';
import { openGet } from '../../src/transfer/zsync/http.js';
import { header } from '../sources/support.js';

/** Settings whose agents count the requests handed to them: the seam a proxy plugs into. */
function countingSettings(): { http: HttpSettings; protocols: string[] } {
  const base = createHttpSettings();
  const protocols: string[] = [];
  return {
    protocols,
    http: {
      ...base,
      agentFor(target: URL): Agent {
        protocols.push(target.protocol);
        return base.agentFor(target);
      },
    },
  };
}

void describe('one HTTP client', () => {
  const sim = useSim('requests-and-faults');
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ak-http-client-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  void test('api requests, downloads and range requests all go through the settings they are given', async () => {
    const url = sim.putAsset('/seam/file.bin', Buffer.from('0123456789'));
    sim.redirect('/seam/start', url);
    const { http, protocols } = countingSettings();

    await request(http, `${sim.url}/seam/start`);
    assert.equal(protocols.length, 2, 'the api request and its redirect');
    const got = await download({
      url: `${sim.url}/seam/start`,
      http,
      destDir: dir,
      tempPrefix: '.ak-seam-',
      segmented: false,
      connections: 1,
      stallTimeoutMs: 5000,
    });
    await rm(got.path);
    assert.equal(protocols.length, 4, 'the download and its redirect');
    const res = await openGet(newSession(http, 5000, undefined), `${sim.url}/seam/start`, {
      range: 'bytes=0-3',
    });
    res.body.resume();
    assert.equal(res.status, 206);
    assert.equal(protocols.length, 6, 'the range request and its redirect');
    assert.deepEqual(new Set(protocols), new Set(['http:']));
  });

  void test('userinfo in a URL or a redirect target is never sent as credentials', async () => {
    const url = sim.putAsset('/userinfo/file.bin', Buffer.from('x'));
    const withUserinfo = new URL(url);
    withUserinfo.username = 'user';
    withUserinfo.password = 'secret';
    sim.redirect('/userinfo/start', withUserinfo.href);
    const http = createHttpSettings();

    const res = await request(http, `${sim.url}/userinfo/start`);
    assert.equal(res.status, 200);
    assert.equal(res.url, url, 'the final URL carries no userinfo either');
    const first = new URL(`${sim.url}/userinfo/start`);
    first.username = 'user';
    await request(http, first.href);
    const got = await download({
      url: `${sim.url}/userinfo/start`,
      http,
      destDir: dir,
      tempPrefix: '.ak-userinfo-',
      segmented: false,
      connections: 1,
      stallTimeoutMs: 5000,
    });
    await rm(got.path);
    const hits = sim.requests.filter((r) => r.path.startsWith('/userinfo/'));
    assert.equal(hits.length, 6);
    for (const hit of hits) assert.equal(header(hit.headers, 'authorization'), undefined, hit.path);
  });

  void test('a redirect loop is HTTP_TOO_MANY_REDIRECTS in every phase, with the phase in its details', async () => {
    sim.redirect('/phase/a', `${sim.url}/phase/b`);
    sim.redirect('/phase/b', `${sim.url}/phase/a`);
    const http = createHttpSettings();
    const start = `${sim.url}/phase/a`;

    await assert.rejects(request(http, start), {
      code: 'HTTP_TOO_MANY_REDIRECTS',
      message: `more than 10 redirects starting at ${start}`,
      details: { phase: 'api', url: start },
    });
    await assert.rejects(request(http, start, { phase: 'attestation' }), {
      code: 'HTTP_TOO_MANY_REDIRECTS',
      details: { phase: 'attestation', url: start },
    });
    await assert.rejects(openGet(newSession(http, 5000, undefined), start, {}), {
      code: 'HTTP_TOO_MANY_REDIRECTS',
      message: `more than 10 redirects starting at ${start}`,
      hint: 'the update falls back to a full download',
      details: { phase: 'range', url: start },
    });
    await assert.rejects(
      download({
        url: start,
        http,
        phase: 'self-update',
        destDir: dir,
        tempPrefix: '.ak-phase-',
        segmented: false,
        connections: 1,
        stallTimeoutMs: 5000,
      }),
      { code: 'HTTP_TOO_MANY_REDIRECTS', details: { phase: 'self-update', url: start } },
    );
    assert.deepEqual(
      (await readdir(dir)).filter((n) => n.startsWith('.ak-phase-')),
      [],
    );
  });

  void test('a redirect to another scheme is HTTP_BAD_REDIRECT', async () => {
    sim.redirect('/scheme/start', 'ftp://example.invalid/file');
    const http = createHttpSettings();
    await assert.rejects(request(http, `${sim.url}/scheme/start`), {
      code: 'HTTP_BAD_REDIRECT',
      details: { phase: 'api', url: `${sim.url}/scheme/start` },
    });
    await assert.rejects(openGet(newSession(http, 5000, undefined), `${sim.url}/scheme/start`, {}), {
      code: 'HTTP_BAD_REDIRECT',
      details: { phase: 'range', url: `${sim.url}/scheme/start` },
    });
  });

  void test('settings built separately have separate agents', () => {
    const a = createHttpSettings();
    const b = createHttpSettings();
    const secure = new URL('https://example.invalid/');
    const plain = new URL('http://example.invalid/');
    assert.equal(a.agentFor(secure), a.agentFor(new URL('https://other.invalid/x')));
    assert.notEqual(a.agentFor(secure), b.agentFor(secure));
    assert.notEqual(a.agentFor(plain), a.agentFor(secure));
  });
});
