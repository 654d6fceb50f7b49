// A recipe, config.yml or lock file gets the same verdict and the same values whatever unrelated
// lines it holds: a comment with a tab, CRLF line ends, a byte-order mark. Each of those once sent
// a file from a hand-written reader to the yaml library, and the two disagreed on NBSP (U+00A0),
// on NBSP "indentation" and on `FALSE:` keys (issue 28).
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load-config.js';
import { loadRecipe } from '../../src/config/load-recipe.js';
import { readLockFile } from '../../src/config/lock-file.js';
import { resolvePaths } from '../../src/config/paths.js';
import { ConfigError, KeeperError } from '../../src/core/errors.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

const NBSP = '\u00a0';

/** What a file reads as: its values, or the messages of its problems (positions left out). */
type Outcome = { ok: true; values: unknown } | { ok: false; messages: string[] };

async function outcomeOf(read: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, values: JSON.parse(JSON.stringify(await read())) as unknown };
  } catch (err) {
    if (err instanceof ConfigError) return { ok: false, messages: err.issues.map((i) => i.message) };
    if (err instanceof KeeperError) return { ok: false, messages: [`${err.code}: ${err.message}`] };
    throw err;
  }
}

/** The same text with an unrelated line or encoding change. */
const VARIANTS: Record<string, (text: string) => string> = {
  'a comment with a tab': (t) => `${t}#\tcomment\n`,
  'CRLF line ends': (t) => t.replaceAll('\n', '\r\n'),
  'a byte-order mark': (t) => `\ufeff${t}`,
};

const forge = (name: string, extra = ''): string =>
  `name: ${name}\nstrategy:\n  strategy: forge\n  repository: https://github.com/o/${name.trim() || 'x'}\n${extra}`;

const RECIPES: Record<string, string> = {
  'a valid recipe': forge('app', 'asset_match: "app-*.AppImage"\n'),
  'a name ending in NBSP': forge(`app${NBSP}`),
  'a key indented with NBSP': `name: app\nstrategy:\n  strategy: forge\n${NBSP}${NBSP}repository: https://github.com/o/app\n`,
  'a FALSE: key': forge('app', 'FALSE: 1\n'),
  'an enum value ending in NBSP': forge('app', `delta: auto${NBSP}\n`),
};

const CONFIGS: Record<string, string> = {
  'a valid config': 'delta: auto\nkeep_previous: true\n',
  'a value ending in NBSP': `delta: auto${NBSP}\n`,
  'a key indented with NBSP': `delta: auto\n${NBSP}${NBSP}keep_previous: true\n`,
  'a FALSE: key': 'FALSE: 1\n',
};

const LOCK_ENTRY = [
  '    source: https://github.com/o/alpha',
  '    version: "1.0"',
  '    identity: v1.0|alpha.AppImage',
  '    asset: alpha.AppImage',
  '    url: https://github.com/o/alpha/releases/download/v1.0/alpha.AppImage',
  `    sha256: ${'1'.repeat(64)}`,
].join('\n');

const LOCKS: Record<string, string> = {
  'a valid lock': `lock_version: 1\napps:\n  alpha:\n${LOCK_ENTRY}\n`,
  'an app indented with NBSP': `lock_version: 1\napps:\n${NBSP}${NBSP}alpha:\n${LOCK_ENTRY}\n`,
  'a version ending in NBSP': `lock_version: 1\napps:\n  alpha:\n${LOCK_ENTRY.replace('"1.0"', `1.0${NBSP}`)}\n`,
  'a FALSE: key': `lock_version: 1\nFALSE: 1\napps:\n  alpha:\n${LOCK_ENTRY}\n`,
};

let h: TmpHome;
before(async () => {
  h = await makeTmpHome();
});
after(async () => {
  await h.cleanup();
});

async function recipeOutcome(text: string): Promise<Outcome> {
  const file = await h.writeRecipe('app', text, 'flat');
  return outcomeOf(
    async () => (await loadRecipe({ id: 'app', file, dir: h.appsDir, layout: 'flat' })).values,
  );
}

async function configOutcome(text: string): Promise<Outcome> {
  await h.writeConfig(text);
  return outcomeOf(async () => (await loadConfig(resolvePaths(h.env, undefined, 'user'))).values);
}

async function lockOutcome(text: string): Promise<Outcome> {
  const file = join(h.root, 'appimage-keeper.lock');
  await writeFile(file, text);
  return outcomeOf(() => readLockFile(file));
}

const KINDS: [string, Record<string, string>, (text: string) => Promise<Outcome>][] = [
  ['recipe', RECIPES, recipeOutcome],
  ['config.yml', CONFIGS, configOutcome],
  ['lock file', LOCKS, lockOutcome],
];

for (const [kind, cases, outcome] of KINDS) {
  void describe(`a ${kind} reads the same whatever unrelated lines it holds`, () => {
    for (const [label, text] of Object.entries(cases)) {
      void test(label, async () => {
        const base = await outcome(text);
        for (const [variant, change] of Object.entries(VARIANTS))
          assert.deepEqual(await outcome(change(text)), base, `${label}, with ${variant}`);
      });
    }
  });
}

void test('NBSP is part of a value, as YAML says: a name ending in one is refused', async () => {
  const r = await recipeOutcome(forge(`app${NBSP}`));
  assert.equal(r.ok, false, JSON.stringify(r));
});
