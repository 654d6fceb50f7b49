// The hand-written recipe checks (src/config/plain-recipe.ts) are a fast path beside the zod
// schema: whatever they accept must come out exactly as zod yields it (same values, same key
// order), and whatever zod refuses, or they are unsure of, they must decline.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { plainRecipeValues } from '../../src/config/plain-recipe.js';
import { recipeSchema } from '../../src/config/schema.js';

const forge = (strategy: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'app',
  strategy: { strategy: 'forge', repository: 'https://github.com/o/r', ...strategy },
  ...extra,
});

// Shapes the fast path takes: it must answer them, and answer what zod does.
const ACCEPTED: Record<string, unknown>[] = [
  forge({}),
  forge({ asset_match: 'App-*.AppImage' }),
  forge({ asset_match_regex: '^App-.*$', inner_asset_match: '*.AppImage', prerelease: true }),
  forge({ prerelease: 'only', tag: '  v1.2 ' }),
  forge({ prerelease: false, repository: '  https://gitlab.com/group/sub/project  ' }),
  // Key order in the file is not the order zod yields.
  {
    strategy: { tag: 'v1', asset_match: 'a', repository: 'https://codeberg.org/o/r', strategy: 'forge' },
    name: 'x',
  },
  forge({}, {}),
  { name: '', strategy: { strategy: 'forge', repository: 'http://host:8080/o/r/' } },
  // The recipe's own fields and the global ones it overrides.
  forge({}, { ignore: true }),
  forge({}, { zsync: 'auto' }),
  forge({}, { zsync: ' https://h.example/a.AppImage.zsync ', ignore: false }),
  forge(
    {},
    { inner_asset_match: '*.AppImage', signing_key: '0x1234 5678 9abc def0 1234 5678 9ABC DEF0 1234 5678' },
  ),
  forge({}, { desktop_exec_args: ['--no-sandbox'], desktop_env: { A_B: 'x', N: 3, T: true } }),
  forge({}, { storage_dir: ' ~/Apps ', naming_format: '{name}-{version}.AppImage', delta: 'zsync' }),
  { manage_desktop_files: false, ...forge({ asset_match: 'a-*' }), min_release_age: '3d', hub_token: null },
];

// Shapes it must decline: zod refuses them, or they are outside what it checks.
const DECLINED: Record<string, unknown>[] = [
  forge({ repository: 'https://github.com/only-owner' }),
  forge({ repository: 'ftp://github.com/o/r' }),
  forge({ repository: 'https://user:pw@github.com/o/r' }),
  forge({ repository: 'https://github.com/o/r\u0007' }),
  forge({ repository: 'not a url' }),
  forge({ repository: 42 }),
  forge({ asset_match: '' }),
  forge({ asset_match: 3 }),
  forge({ prerelease: 'yes' }),
  forge({ prerelease: null }),
  forge({ tag: '   ' }),
  forge({ tag: null }),
  forge({ unknown_key: 1 }),
  forge({}, { storage_dir: '/x', ignore: 'yes' }),
  forge({}, { zsync: 'https://u:p@h/x.zsync' }),
  forge({}, { signing_key: 'ABCD' }),
  forge({}, { desktop_env: { 'BAD-NAME': 'x' } }),
  forge({}, { desktop_env: { OK: null } }),
  forge({}, { desktop_exec_args: ['--x', 1] }),
  forge({}, { https_proxy: 'http://proxy:3128' }),
  forge({}, { naming_format: '{nam}.AppImage' }),
  { name: 7, strategy: { strategy: 'forge', repository: 'https://github.com/o/r' } },
  { name: 'x' },
  { name: 'x', strategy: { strategy: 'direct', url: 'https://e.org/a.AppImage', check_method: 'etag' } },
  { name: 'x', strategy: ['forge'] },
  { name: 'x', strategy: null },
  {
    name: 'x',
    strategy: Object.assign(Object.create(null) as object, {
      strategy: 'forge',
      repository: 'https://h/o/r',
    }),
  },
];

void describe('plain recipe checks beside the zod schema', () => {
  void test('accept the commonest shapes and yield exactly what zod yields, key order included', () => {
    for (const data of ACCEPTED) {
      const fast = plainRecipeValues(structuredClone(data));
      const zod = recipeSchema.safeParse(structuredClone(data));
      assert.ok(zod.success, `zod refuses ${JSON.stringify(data)}`);
      assert.ok(fast, `fast path declines ${JSON.stringify(data)}`);
      assert.equal(JSON.stringify(fast), JSON.stringify(zod.data));
    }
  });

  void test('decline what zod refuses and what they do not check', () => {
    for (const data of DECLINED) assert.equal(plainRecipeValues(data), undefined, JSON.stringify(data));
  });

  void test('never accept what zod refuses, over mutations of a valid recipe', () => {
    const values: unknown[] = [
      '',
      ' ',
      'x',
      'only',
      'forge',
      true,
      0,
      null,
      [],
      {},
      'https://h/o',
      'https://h/o/r',
    ];
    const keys = [
      'strategy',
      'repository',
      'asset_match',
      'asset_match_regex',
      'inner_asset_match',
      'prerelease',
      'tag',
      'url',
    ];
    const topLevel = [
      'ignore',
      'zsync',
      'signing_key',
      'inner_asset_match',
      'desktop_exec_args',
      'desktop_env',
      'storage_dir',
      'naming_format',
      'delta',
      'min_release_age',
      'download_connections',
      'catalogues',
    ];
    const more: unknown[] = [
      'auto',
      '3d',
      4,
      1.5,
      ['a'],
      { A: 'b' },
      { A: [] },
      'https://h.example/x',
      '0123456789abcdef0123456789abcdef01234567',
    ];
    for (const key of topLevel)
      for (const value of [...values, ...more]) {
        const data = forge({}, { [key]: value });
        const fast = plainRecipeValues(structuredClone(data));
        const zod = recipeSchema.safeParse(structuredClone(data));
        if (fast === undefined) continue;
        assert.ok(zod.success, `fast path accepts what zod refuses: ${JSON.stringify(data)}`);
        assert.equal(JSON.stringify(fast), JSON.stringify(zod.data), JSON.stringify(data));
      }
    for (const key of keys)
      for (const value of values) {
        const data = forge({ [key]: value });
        const fast = plainRecipeValues(structuredClone(data));
        const zod = recipeSchema.safeParse(structuredClone(data));
        if (fast === undefined) continue;
        assert.ok(zod.success, `fast path accepts what zod refuses: ${JSON.stringify(data)}`);
        assert.equal(JSON.stringify(fast), JSON.stringify(zod.data), JSON.stringify(data));
      }
  });
});
