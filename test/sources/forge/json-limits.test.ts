/**
 * Hostile JSON under the body cap: deep nesting and millions of tiny values are refused by a scan
 * before JSON.parse, over real HTTP; ordinary release JSON (brackets inside strings included) passes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSim, type Sim } from '../../../sim/index.js';
import { KeeperError } from '../../../src/core/errors.js';
import { request } from '../../../src/http/http.js';
import { createHttpSettings } from '../../../src/http/settings.js';
import { checkJsonShape } from '../../../src/http/json-limits.js';

const http = createHttpSettings();

const json = { contentType: 'application/json' };

void describe('metadata JSON limits', () => {
  let sim: Sim;
  before(async () => {
    sim = await startSim();
  });
  after(async () => sim.stop());

  async function jsonError(body: string): Promise<string> {
    const url = sim.putAsset(`/api/${Math.random().toString(16).slice(2)}`, Buffer.from(body), json);
    const res = await request(http, url);
    try {
      res.json();
    } catch (err) {
      assert.ok(err instanceof KeeperError, String(err));
      assert.ok(err.message.includes(url), err.message);
      return err.code;
    }
    return 'parsed';
  }

  void test('8 MiB of nested arrays is refused before parsing', async () => {
    const depth = 8 * 1024 * 1024;
    assert.equal(await jsonError('['.repeat(depth) + ']'.repeat(depth)), 'HTTP_JSON_TOO_DEEP');
  });

  void test('millions of tiny values are refused before parsing', async () => {
    assert.equal(await jsonError(`[${'{},'.repeat(3_000_000)}{}]`), 'HTTP_JSON_TOO_LARGE');
    assert.equal(await jsonError(`[${'0,'.repeat(3_000_000)}0]`), 'HTTP_JSON_TOO_LARGE');
  });

  void test('a realistic release list passes; brackets and quotes inside strings do not count', async () => {
    const assets = Array.from({ length: 200 }, (_, i) => ({
      id: i,
      name: `App-${i}-x86_64.AppImage`,
      browser_download_url: `https://example.invalid/${i}`,
      uploader: { login: 'bot', id: 1, type: 'Bot' },
    }));
    const releases = Array.from({ length: 100 }, (_, i) => ({
      tag_name: `v${i}`,
      body: `${'[[[{{{'.repeat(100)} \\" ]] "quoted"`,
      assets,
    }));
    const parsed = await request(
      http,
      sim.putAsset('/api/releases', Buffer.from(JSON.stringify(releases)), json),
    ).then((r) => r.json());
    assert.equal((parsed as unknown[]).length, 100);
  });

  void test('the scan itself: depth counts containers, strings are skipped', () => {
    assert.doesNotThrow(() =>
      checkJsonShape('{"a":"[[[[[[[[","b":[[1]]}', 'u', { maxDepth: 3, maxValues: 10 }),
    );
    assert.throws(
      () => checkJsonShape('{"a":[[[1]]]}', 'u', { maxDepth: 3, maxValues: 10 }),
      (err: unknown) => err instanceof KeeperError && err.code === 'HTTP_JSON_TOO_DEEP',
    );
    assert.throws(
      () => checkJsonShape('[1,2,3,4,5,6,7,8,9,10,11]', 'u', { maxDepth: 3, maxValues: 10 }),
      (err: unknown) => err instanceof KeeperError && err.code === 'HTTP_JSON_TOO_LARGE',
    );
  });
});
