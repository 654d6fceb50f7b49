/**
 * The plain path of config.yml (src/config/plain-config.ts) against the zod schema: wherever a
 * plain check answers a value, the schema accepts the same input and yields exactly that value;
 * every field's check takes the common values; and whole configs (the starter config, the test
 * worlds') go the plain way and come out as the schema reads them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { fieldKit } from '../../src/config/field-kit.js';
import { GLOBAL_FIELDS } from '../../src/config/fields.js';
import { DOUBT, PLAIN_CHECKS, plainConfigValues } from '../../src/config/plain-config.js';
import { readPlainYaml } from '../../src/config/plain-yaml.js';
import { configSchema } from '../../src/config/schema.js';
import { starterConfig } from '../../src/config/templates.js';

const URLS = [
  'https://github.com',
  ' https://api.github.com ',
  'https://api.github.com/',
  'http://forge.test:8080/api/v1',
  'https://user:pw@example.org',
  'ftp://example.org',
  'https://',
  'not a url',
  'https://example.org/a\u0007b',
  'https://github.com/{account}/{repository}',
  'https://api.github.com/repos/{account}/{repository}/releases/latest',
  'https://lab.example.com/api/v4',
  'https://lab.example.com/api/v4/projects/{project_path}/releases/permalink/latest',
  'https://lab.example.com/{repo_path}',
];

const STRINGS = [
  '',
  ' ',
  'x',
  ' x ',
  '~/Apps',
  '/opt/appimages',
  'all',
  ' all ',
  'ALL',
  'auto',
  'zsync',
  'blockmap',
  'off',
  'warn',
  'require',
  'tofu',
  'Off',
  '3d',
  '12h',
  ' 1w ',
  '0',
  '90m',
  '3 days',
  '-1d',
  '{name}.AppImage',
  '{name}-{version}.AppImage',
  '{nam}.AppImage',
  'a/b',
  '.',
  '..',
  '.ak-{name}',
  `${'n'.repeat(300)}{name}`,
  'o/r/.github/workflows/release.yml',
  ' o/r/.github/workflows/x.yaml ',
  'o/r/workflows/x.yml',
  'x'.repeat(2048),
  ` ${'x'.repeat(2048)} `,
  'x'.repeat(2049),
  'http://user:pw@proxy:3128',
  ...URLS,
];

const NUMBERS = [
  0,
  1,
  -1,
  0.5,
  1.5,
  4,
  16,
  17,
  3600,
  3601,
  10240,
  86400,
  86401,
  2 ** 50,
  2 ** 50 + 1,
  2 ** 53,
  1e300,
];

const OTHERS: unknown[] = [
  true,
  false,
  {},
  { url: 'https://a.example' },
  [],
  ['https://a.example/feed.json'],
  ['https://a.example', 'bad'],
  [' https://a.example/x '],
  [{ url: 'https://a.example/list', format: 'am' }],
  [{ url: ' https://a.example/k.json ', format: 'keeper' }, 'https://b.example/feed.json'],
  [{ url: 'https://a.example', format: 'other' }],
  [{ url: 'https://a.example', format: 'am', extra: 1 }],
  [{ url: 'https://u:p@a.example', format: 'am' }],
  Array.from({ length: 32 }, (_, i) => `https://a.example/${i}`),
  Array.from({ length: 33 }, (_, i) => `https://a.example/${i}`),
  [1, 2],
  ['all'],
];

const SAMPLES: unknown[] = [...STRINGS, ...NUMBERS, ...OTHERS];

void describe('each field: the plain check agrees with the schema', () => {
  for (const f of GLOBAL_FIELDS) {
    void test(f.key, () => {
      const check = PLAIN_CHECKS[f.key];
      assert.ok(check, `${f.key} has no plain check`);
      const schema = f.schema(fieldKit);
      let taken = 0;
      for (const sample of SAMPLES) {
        const plain = check(sample);
        if (plain === DOUBT) continue;
        taken++;
        const r = schema.safeParse(sample);
        assert.ok(r.success, `${f.key}: plain took ${JSON.stringify(sample)}, zod refused it`);
        assert.deepStrictEqual(plain, r.data, `${f.key}: ${JSON.stringify(sample)}`);
      }
      // A check that takes nothing would pass the comparison and speed nothing up.
      assert.ok(taken > 0, `${f.key}: no sample took the plain path`);
      if (f.default !== undefined)
        assert.notEqual(check(f.default), DOUBT, `${f.key}: its default is doubted`);
    });
  }
});

function bothWays(text: string): void {
  const data = readPlainYaml(text);
  assert.ok(data, 'the plain YAML reader took the file');
  const plain = plainConfigValues({ ...data });
  assert.ok(plain, 'the plain checks took every field');
  assert.deepStrictEqual(plain, configSchema.parse(parse(text)));
}

void describe('whole configs', () => {
  void test('the starter config and its system variant', () => {
    bothWays(starterConfig());
    bothWays(starterConfig({ storage_dir: '/opt/appimages', symlink_dir: '/usr/local/bin' }));
  });

  void test('a config as the tests and benchmarks write it', () => {
    bothWays(
      [
        'storage_dir: /tmp/x/storage',
        'symlink_dir: /tmp/x/bin',
        'hub_proxy: false',
        'hub_release_api_url: http://127.0.0.1:4000/hub-api',
        'hub_release_web_url: http://127.0.0.1:4000',
        'respect_rate_limits: true',
        'catalogues:',
        '  - http://127.0.0.1:4000/feed.json',
        '  - http://127.0.0.1:4000/am/x86_64-apps',
        'min_release_age: "3d"',
        '',
      ].join('\n'),
    );
  });

  void test('unknown keys, empty values the schema refuses, and doubts go to the schema', () => {
    assert.equal(plainConfigValues({ storage_dirr: '/x' }), undefined);
    assert.equal(plainConfigValues({ naming_format: '{nam}.AppImage' }), undefined);
    assert.equal(plainConfigValues({ download_connections: 17 }), undefined);
    assert.equal(plainConfigValues(JSON.parse('{"__proto__": "/x"}') as Record<string, unknown>), undefined);
    assert.deepEqual(plainConfigValues({ ca_file: null }), { ca_file: undefined });
  });
});
