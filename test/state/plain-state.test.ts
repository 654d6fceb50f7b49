/**
 * The hand check of state entries (src/state/plain-state.ts) never accepts what the schema refuses,
 * and whatever it accepts the schema returns unchanged: compared on a full state and on thousands
 * of mutations of it. It must also accept sound states, or it would only ever defer to zod.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { PLAIN_STATE_TABLES, plainStateValid } from '../../src/state/plain-state.js';
import { appStateSchema, forgeKindSchema, rateLimitSchema } from '../../src/state/schema.js';
import type { StateData } from '../../src/state/types.js';
import { seededRandom } from '../helpers/seeded-random.js';

const installed = {
  version: '1.2.3',
  identity: 'v1.2.3|App-x86_64.AppImage',
  file: '/home/u/Applications/App.AppImage',
  url: 'https://example.org/App.AppImage',
  size: 1234,
  sha256: 'ab'.repeat(32),
  installedAt: '2026-01-01T00:00:00.000Z',
  provenance: {
    digest: `sha256:${'ab'.repeat(32)}`,
    build: {
      predicateType: 'https://slsa.dev/provenance/v1',
      signerWorkflow: 'https://github.com/o/r/.github/workflows/release.yml@refs/tags/v1',
      sourceRepository: 'https://github.com/o/r',
      sourceCommit: 'c'.repeat(40),
    },
    release: { predicateType: 'https://in-toto.io/attestation/release/v0.1', signer: 'x', tag: 'v1' },
    verifiedAt: '2026-01-01T00:00:00.000Z',
  },
  publishedAt: '2025-12-31T00:00:00Z',
};
const integration = {
  desktopId: 'appimage-keeper-app.desktop',
  desktopFile: '/home/u/.local/share/applications/appimage-keeper-app.desktop',
  icons: ['/home/u/.local/share/icons/hicolor/256x256/apps/app.png'],
  launch: { electron: 'resources/app.asar', libfuse2: false, fixes: ['no-sandbox'] },
};

// A fresh copy each time: mutations must not reach the constants above or another state.
function fullState(): StateData {
  return structuredClone({
    schema: 1,
    apps: {
      app: {
        strategy: 'forge',
        installed,
        previous: { ...installed, version: '1.2.2', integration },
        integration,
        symlink: '/home/u/.local/bin/app',
        hold: false,
        lastCheck: '2026-01-02T00:00:00Z',
        lastUpdate: '2026-01-01T00:00:00Z',
        latest: { version: '1.2.3', identity: 'v1.2.3|App', checkedAt: '2026-01-02T00:00:00Z' },
        lastError: { code: 'HTTP_NETWORK', message: 'boom', at: '2026-01-02T00:00:00Z' },
        signature: {
          fingerprint: 'A'.repeat(40),
          pinnedBy: 'first-install',
          pinnedAt: '2026-01-01T00:00:00Z',
          publicKey: 'AAAA',
          lastVerified: {
            version: '1.2.3',
            signerKeyId: 'ABCD',
            hashAlgorithm: 'SHA256',
            mode: 'binary',
            signedAt: null,
            at: '2026-01-01T00:00:00Z',
          },
        },
        releaseAssets: { 'v1|App': { sha256: 'ab', size: 1, installedAt: '2026-01-01T00:00:00Z' } },
        retired: [{ from: '/a/old.AppImage', backup: '/a/.old.bak' }],
        firstSeen: { identity: 'v1.2.3|App', at: '2026-01-01T00:00:00Z' },
        futureKey: { kept: true },
      },
      removed: { strategy: 'direct', removedAt: '2026-01-03T00:00:00Z' },
    },
    forgeKinds: { 'https://git.example.org': 'forgejo' },
    rateLimits: {
      'app:app': { until: '2026-01-01T01:00:00Z', message: 'limited', url: 'https://x', host: 'x' },
    },
  }) as unknown as StateData;
}

// What the schema says of every entry, and whether it would return each one unchanged.
function schemaVerdict(data: StateData): { valid: boolean; unchanged: boolean } {
  const checks: [{ safeParse(v: unknown): { success: boolean; data?: unknown } }, unknown[]][] = [
    [appStateSchema, Object.values(data.apps)],
    [rateLimitSchema, Object.values(data.rateLimits)],
    [forgeKindSchema, Object.values(data.forgeKinds)],
  ];
  let unchanged = true;
  for (const [schema, entries] of checks)
    for (const entry of entries) {
      const r = schema.safeParse(entry);
      if (!r.success) return { valid: false, unchanged: false };
      if (!isDeepStrictEqual(r.data, entry)) unchanged = false;
    }
  return { valid: true, unchanged };
}

const ODD_VALUES: unknown[] = [
  null,
  '',
  'relative/path',
  '/a\0b',
  `/${'x'.repeat(5000)}`,
  -1,
  1.5,
  2 ** 60,
  0,
  true,
  [],
  {},
  ['x'],
  'binary',
  'gitea',
  'A'.repeat(40),
  'a'.repeat(40),
  'first-install',
  { extra: 1 },
];

// Every container path of a value, for mutations to pick from.
function containers(
  v: unknown,
  path: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  if (typeof v === 'object' && v !== null) {
    out.push(path);
    for (const [k, child] of Object.entries(v))
      containers(child, [...path, Array.isArray(v) ? Number(k) : k], out);
  }
  return out;
}

function at(root: unknown, path: (string | number)[]): Record<string | number, unknown> {
  let cur = root as Record<string | number, unknown>;
  for (const p of path) cur = cur[p] as Record<string | number, unknown>;
  return cur;
}

function mutate(data: StateData, rnd: () => number): void {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  // A fresh copy each time: the odd values are shared between mutations.
  const odd = (): unknown => structuredClone(pick(ODD_VALUES));
  const target = at(data, pick(containers(data).filter((p) => p.length > 0)));
  const keys = Object.keys(target);
  const roll = rnd();
  if (Array.isArray(target)) {
    const list = target as unknown[];
    if (roll < 0.3) list.push(odd());
    else if (roll < 0.4) list.push(...Array.from({ length: 1001 }, (): unknown => list[0] ?? '/x'));
    else if (list.length > 0) list[Math.floor(rnd() * list.length)] = odd();
    return;
  }
  if (roll < 0.25 && keys.length > 0) delete target[pick(keys)];
  else if (roll < 0.5) {
    // An own key, as JSON.parse makes them (`__proto__` included).
    const key = pick(['extra', '__proto__', 'file', 'size', 'strategy', 'mode', 'until']);
    Object.defineProperty(target, key, {
      value: odd(),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else if (keys.length > 0) target[pick(keys)] = odd();
}

void test('a full, sound state passes the hand check, and the schema returns it unchanged', () => {
  const data = fullState();
  assert.equal(plainStateValid(data), true);
  assert.deepEqual(schemaVerdict(data), { valid: true, unchanged: true });
});

void test('on 4,000 mutated states the hand check accepts only what the schema returns unchanged', () => {
  const rnd = seededRandom(20261126);
  let accepted = 0;
  let deferred = 0;
  for (let i = 0; i < 4000; i++) {
    const data = fullState();
    for (let m = 1 + Math.floor(rnd() * 3); m > 0; m--) mutate(data, rnd);
    const copy = structuredClone(data);
    const plain = plainStateValid(data);
    assert.deepStrictEqual(data, copy, 'the hand check changed the state');
    const verdict = schemaVerdict(data);
    if (plain) {
      accepted++;
      assert.deepEqual(verdict, { valid: true, unchanged: true }, `mutation ${i}: ${JSON.stringify(data)}`);
    } else if (verdict.valid) deferred++;
  }
  // Both answers occur: the check is neither a constant nor a copy of "always defer".
  assert.ok(accepted > 400, `accepted ${accepted}`);
  assert.ok(deferred < accepted, `deferred ${deferred} valid states to the schema, accepted ${accepted}`);
});

// A zod schema as far as this test walks it, by its definition: optional and nullable wrappers,
// arrays, records and objects.
interface Walkable {
  _zod: {
    def: {
      type: string;
      innerType?: Walkable;
      element?: Walkable;
      valueType?: Walkable;
      shape?: Record<string, Walkable>;
    };
  };
}

const defOf = (s: Walkable): Walkable['_zod']['def'] => s._zod.def;
// Without its optional or nullable wrappers.
function bare(s: Walkable): Walkable {
  const def = defOf(s);
  return (def.type === 'optional' || def.type === 'nullable') && def.innerType ? bare(def.innerType) : s;
}

// The object schema at `path` (see PLAIN_STATE_TABLES) below `root`.
function shapeAt(root: Walkable, path: string): Record<string, Walkable> {
  let cur = bare(root);
  for (const step of path.split('.').slice(1)) {
    const name = step.replace(/(\[\]|\{\})$/, '');
    cur = bare(defOf(cur).shape?.[name] ?? assert.fail(`${path}: no ${name}`));
    if (step.endsWith('[]')) cur = bare(defOf(cur).element ?? assert.fail(`${path}: not an array`));
    if (step.endsWith('{}')) cur = bare(defOf(cur).valueType ?? assert.fail(`${path}: not a record`));
  }
  return defOf(cur).shape ?? assert.fail(`${path}: not an object`);
}

// Every object below `s`, by path.
function objectPaths(s: Walkable, path: string): string[] {
  const def = defOf(bare(s));
  if (def.type === 'array' && def.element) return objectPaths(def.element, `${path}[]`);
  if (def.type === 'record' && def.valueType) return objectPaths(def.valueType, `${path}{}`);
  if (def.type !== 'object' || !def.shape) return [];
  return [path, ...Object.entries(def.shape).flatMap(([k, v]) => objectPaths(v, `${path}.${k}`))];
}

void test('every table of the hand check names exactly the keys of its object in schema.ts, and every object has one', () => {
  for (const [path, table] of Object.entries(PLAIN_STATE_TABLES)) {
    const root = (path.startsWith('rateLimit') ? rateLimitSchema : appStateSchema) as unknown as Walkable;
    assert.deepEqual(Object.keys(table).sort(), Object.keys(shapeAt(root, path)).sort(), path);
  }
  assert.deepEqual(
    [...objectPaths(appStateSchema as unknown as Walkable, 'app'), 'rateLimit'].sort(),
    Object.keys(PLAIN_STATE_TABLES).sort(),
  );
});
