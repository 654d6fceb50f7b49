import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { KeeperEvent } from '../../src/core/events.js';
import { writeFileAtomic } from '../../src/core/atomic-files.js';
import { StateStore } from '../../src/state/store.js';
import { installedRecord } from '../helpers/state-file.js';

const NOW = new Date('2026-03-04T05:06:07.089Z');

function collector(): { events: KeeperEvent[]; emit: (e: KeeperEvent) => void } {
  const events: KeeperEvent[] = [];
  return { events, emit: (e) => events.push(e) };
}

void describe('state store', () => {
  let root: string;
  let n = 0;
  const freshDir = async (): Promise<string> => {
    const d = join(root, `s${++n}`);
    await mkdir(d);
    return d;
  };
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'ak-'));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  void test('a missing state dir loads empty and loading does not create it', async () => {
    const dir = join(root, 'never-created');
    const { events, emit } = collector();
    const store = await StateStore.load(dir, NOW, emit);
    assert.deepEqual(store.snapshot(), { schema: 1, apps: {}, forgeKinds: {}, rateLimits: {} });
    assert.deepEqual(events, []);
    await assert.rejects(stat(dir), { code: 'ENOENT' });
  });

  void test('save and load round-trip every kind of data', async () => {
    const dir = join(root, 'roundtrip', 'state');
    const store = await StateStore.load(dir, NOW, collector().emit);
    const installed = {
      version: '1.2.3',
      identity: 'v1.2.3/app.AppImage',
      file: '/home/u/Apps/app.AppImage',
      url: 'https://example.com/app.AppImage',
      size: 1234,
      sha256: 'ab'.repeat(32),
      installedAt: NOW.toISOString(),
    };
    store.updateApp('app', 'forge', (cur) => ({
      ...cur,
      installed,
      lastCheck: NOW.toISOString(),
      hold: true,
    }));
    store.updateApp('other', 'direct', (cur) => ({
      ...cur,
      lastError: { code: 'X', message: 'm', at: 'now' },
    }));
    store.setForgeKind('https://git.example', 'forgejo');
    store.setRateLimit('host:api.github.com', { until: '2099-01-01T00:00:00Z', message: 'limited' });
    store.setRateLimit('app:old', { until: '2000-01-01T00:00:00Z', message: 'over' });
    store.pruneRateLimits(NOW);
    store.setCached('https://api/x', { etag: '"e"', body: { tag: 'v1' }, fetchedAt: NOW.toISOString() });
    store.setLastRun({
      command: 'update',
      startedAt: 'a',
      finishedAt: 'b',
      summary: { updated: 1 },
      failed: [],
      updated: ['app'],
    });
    await store.save();

    const again = await StateStore.load(dir, NOW, collector().emit);
    assert.deepEqual(again.snapshot(), store.snapshot());
    assert.deepEqual(again.app('app'), {
      strategy: 'forge',
      installed,
      lastCheck: NOW.toISOString(),
      hold: true,
    });
    assert.deepEqual(again.appNames(), ['app', 'other']);
    assert.equal(again.getForgeKind('https://git.example'), 'forgejo');
    assert.deepEqual(again.getRateLimit('host:api.github.com'), {
      until: '2099-01-01T00:00:00Z',
      message: 'limited',
    });
    assert.equal(again.getRateLimit('app:old'), undefined);
    assert.deepEqual(again.getCached('https://api/x')?.body, { tag: 'v1' });
    assert.equal(again.snapshot().lastRun?.command, 'update');

    again.deleteApp('other');
    again.clearRateLimit('host:api.github.com');
    await again.save();
    const third = await StateStore.load(dir, NOW, collector().emit);
    assert.deepEqual(third.appNames(), ['app']);
    assert.deepEqual(third.snapshot().rateLimits, {});
    // The cache was not touched, so it is still there from the first save.
    assert.deepEqual(third.getCached('https://api/x')?.body, { tag: 'v1' });
    assert.equal((await stat(join(dir, 'state.json'))).mode & 0o777, 0o600);
  });

  void test('snapshots and updateApp inputs are copies: callers cannot change state behind its back', async () => {
    const store = await StateStore.load(await freshDir(), NOW, collector().emit);
    store.updateApp('a', 'forge', (cur) => ({ ...cur, lastCheck: 'x' }));
    const snap = store.snapshot();
    snap.apps.a = { strategy: 'mutated' };
    assert.equal(store.app('a')?.strategy, 'forge');
    assert.throws(() =>
      store.updateApp('a', 'forge', (cur) => {
        cur.lastCheck = 'changed-in-callback';
        throw new Error('abort');
      }),
    );
    assert.equal(store.app('a')?.lastCheck, 'x');
  });

  void test('state.json we wrote is not validated again; once edited, it is', async () => {
    const dir = await freshDir();
    const store = await StateStore.load(dir, NOW, collector().emit);
    // An entry the schema refuses (a relative file): only a digest that vouches for the bytes
    // can let it through unchecked.
    const installed = installedRecord('relative');
    store.updateApp('vouched', 'forge', () => ({ strategy: 'forge', installed }));
    await store.save();
    const written = await readFile(join(dir, 'state.json'), 'utf8');
    assert.match(written, /^\{\n {2}"digest": "[A-Za-z0-9_-]{43}",\n {2}"schema": 1,/);
    const same = collector();
    const again = await StateStore.load(dir, NOW, same.emit);
    assert.deepEqual(same.events, []);
    assert.ok(again.app('vouched'));
    assert.equal('digest' in again.snapshot(), false);
    for (const edited of [
      written.replace('\n  "apps"', '\n   "apps"'),
      written.replace(/"digest": "[^"]*"/, `"digest": "${'A'.repeat(43)}"`),
    ]) {
      await writeFile(join(dir, 'state.json'), edited);
      const c = collector();
      const checked = await StateStore.load(dir, NOW, c.emit);
      assert.equal(checked.app('vouched'), undefined);
      assert.ok(c.events.some((e) => e.type === 'warning' && e.code === 'STATE_ENTRY_INVALID'));
    }
  });

  void test('saving leaves only state.json and cache.json: no temp files', async () => {
    const dir = await freshDir();
    const store = await StateStore.load(dir, NOW, collector().emit);
    for (let i = 0; i < 5; i++) {
      store.updateApp(`app${i}`, 'direct', (cur) => cur);
      store.setCached(`https://x/${i}`, { body: i, fetchedAt: 'now' });
      await store.save();
    }
    assert.deepEqual((await readdir(dir)).sort(), ['cache.json', 'state.json']);
  });

  void test('a failed atomic write leaves the old file and no temp file', async () => {
    const dir = await freshDir();
    const target = join(dir, 'file.json');
    await writeFileAtomic(target, 'old', { root: dir });
    // Renaming a file over a non-empty directory fails after the temp file was written.
    const blocked = join(dir, 'blocked');
    await mkdir(join(blocked, 'inside'), { recursive: true });
    await assert.rejects(writeFileAtomic(blocked, 'new', { root: dir }));
    assert.deepEqual((await readdir(dir)).sort(), ['blocked', 'file.json']);
    assert.equal(await readFile(target, 'utf8'), 'old');
    await writeFileAtomic(target, 'newer', { root: dir });
    assert.equal(await readFile(target, 'utf8'), 'newer');
    assert.deepEqual((await readdir(dir)).sort(), ['blocked', 'file.json']);
  });

  for (const [label, bytes] of [
    ['truncated JSON', '{"schema":1,"apps":{"a":'],
    ['a future schema', '{"schema":2,"apps":{},"forgeKinds":{},"rateLimits":{}}'],
    ['binary garbage', '\u0000\u0001\u00ff not json'],
  ] as const) {
    void test(`a corrupt state file (${label}) is moved aside with a warning, bytes preserved`, async () => {
      const dir = await freshDir();
      const stateFile = join(dir, 'state.json');
      await writeFile(stateFile, bytes);
      const { events, emit } = collector();
      const store = await StateStore.load(dir, NOW, emit);
      const moved = `${stateFile}.corrupt-2026-03-04T05-06-07-089Z`;
      assert.equal(await readFile(moved, 'utf8'), bytes);
      await assert.rejects(stat(stateFile), { code: 'ENOENT' });
      assert.equal(events.length, 1);
      const ev = events[0];
      assert.ok(ev?.type === 'warning');
      assert.equal(ev.code, 'STATE_CORRUPT');
      assert.ok(ev.message.includes(moved), ev.message);
      assert.deepEqual(store.appNames(), []);
      // The next save writes a fresh file and keeps the moved one.
      store.updateApp('a', 'forge', (cur) => cur);
      await store.save();
      assert.deepEqual((JSON.parse(await readFile(stateFile, 'utf8')) as { apps: object }).apps, {
        a: { strategy: 'forge' },
      });
      assert.equal(await readFile(moved, 'utf8'), bytes);
    });
  }

  void test('a read-only load reports a corrupt state file but leaves it where it is', async () => {
    const dir = await freshDir();
    const stateFile = join(dir, 'state.json');
    await writeFile(stateFile, 'not json at all');
    await writeFile(join(dir, 'cache.json'), '[]');
    const { events, emit } = collector();
    const store = await StateStore.load(dir, NOW, emit, { readOnly: true });
    assert.deepEqual(store.appNames(), []);
    assert.equal(await readFile(stateFile, 'utf8'), 'not json at all');
    assert.deepEqual((await readdir(dir)).sort(), ['cache.json', 'state.json']);
    assert.deepEqual(
      events.map((e) => (e.type === 'warning' ? e.code : e.type)),
      ['STATE_CORRUPT', 'CACHE_CORRUPT'],
    );
  });

  void test('a corrupt cache is moved aside too and does not affect state', async () => {
    const dir = await freshDir();
    const good = await StateStore.load(dir, NOW, collector().emit);
    good.updateApp('kept', 'forge', (cur) => cur);
    await good.save();
    await writeFile(join(dir, 'cache.json'), '{"schema":1');
    const { events, emit } = collector();
    const store = await StateStore.load(dir, NOW, emit);
    assert.deepEqual(store.appNames(), ['kept']);
    assert.deepEqual(
      events.map((e) => (e.type === 'warning' ? e.code : e.type)),
      ['CACHE_CORRUPT'],
    );
    assert.equal(
      await readFile(join(dir, 'cache.json.corrupt-2026-03-04T05-06-07-089Z'), 'utf8'),
      '{"schema":1',
    );
  });
  void test('invalid entries are set aside or dropped with a warning; valid ones load as they were', async () => {
    const dir = await freshDir();
    const good = {
      strategy: 'forge',
      installed: {
        version: '1',
        identity: 'i',
        file: '/s/good.AppImage',
        url: 'u',
        size: 1,
        sha256: 'a'.repeat(64),
        installedAt: 'x',
      },
      futureKey: 'kept',
    };
    const bad = { strategy: 'forge', installed: { ...good.installed, file: 42 } };
    const relative = { strategy: 'forge', installed: { ...good.installed, file: 'relative.AppImage' } };
    await writeFile(
      join(dir, 'state.json'),
      JSON.stringify({
        schema: 1,
        apps: { good, bad, relative },
        forgeKinds: { 'https://g': 'gitea', 'https://x': 'nonsense' },
        rateLimits: { 'host:a': { until: 5 } },
      }),
    );
    const { events, emit } = collector();
    const store = await StateStore.load(dir, NOW, emit);
    assert.deepEqual(store.appNames(), ['good']);
    assert.deepEqual(store.app('good'), good);
    const snap = store.snapshot();
    assert.deepEqual(Object.keys(snap.setAside ?? {}).sort(), ['bad', 'relative']);
    assert.deepEqual(snap.setAside?.bad?.entry, bad);
    assert.deepEqual(snap.forgeKinds, { 'https://g': 'gitea' });
    assert.deepEqual(snap.rateLimits, {});
    const codes = events.map((e) => (e.type === 'warning' ? e.code : e.type));
    assert.deepEqual(codes, Array(4).fill('STATE_ENTRY_INVALID'));
    assert.ok(events.some((e) => e.type === 'warning' && /"bad": installed\.file/.test(e.message)));
  });
  // The signature pin, removal time, attestation record and rate-limit URL were typed by hand next
  // to a schema that did not check them: a damaged one loaded and reached the code as if valid.
  // With the types inferred from the schema, they are checked like every other field.
  void test('a damaged signature pin, removedAt or provenance sets the entry aside; a bad window url is dropped', async () => {
    const dir = await freshDir();
    const installed = {
      version: '1',
      identity: 'i',
      file: '/s/a.AppImage',
      url: 'u',
      size: 1,
      sha256: 'a'.repeat(64),
      installedAt: 'x',
    };
    const pin = { fingerprint: 'F'.repeat(40), pinnedBy: 'first-install', pinnedAt: 'x' };
    const good = {
      strategy: 'forge',
      installed: { ...installed, provenance: { digest: 'sha256:a', verifiedAt: 'x' } },
      signature: pin,
      removedAt: 'x',
    };
    const apps = {
      good,
      pin: { strategy: 'forge', installed, signature: { ...pin, fingerprint: 'not-a-key' } },
      removed: { strategy: 'forge', removedAt: 7 },
      attested: { strategy: 'forge', installed: { ...installed, provenance: { digest: 1 } } },
    };
    await writeFile(
      join(dir, 'state.json'),
      JSON.stringify({
        schema: 1,
        apps,
        forgeKinds: {},
        rateLimits: { 'app:a': { until: 'x', message: 'm', url: 5 }, 'app:b': { until: 'x', message: 'm' } },
      }),
    );
    const { events, emit } = collector();
    const store = await StateStore.load(dir, NOW, emit);
    assert.deepEqual(store.appNames(), ['good']);
    assert.deepEqual(store.app('good'), good);
    const snap = store.snapshot();
    assert.deepEqual(Object.keys(snap.setAside ?? {}).sort(), ['attested', 'pin', 'removed']);
    assert.deepEqual(Object.keys(snap.rateLimits), ['app:b']);
    assert.equal(events.length, 4);
    assert.ok(events.some((e) => e.type === 'warning' && /"pin": signature\.fingerprint/.test(e.message)));
  });
});
