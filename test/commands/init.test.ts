import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse, parseDocument } from 'yaml';
import { z } from 'zod';
import { GLOBAL_FIELDS } from '../../src/config/fields.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

interface InitJson {
  command: string;
  written: string[];
  error?: { code: string };
}
interface ValidateJson {
  ok: boolean;
  apps: { name: string; ok: boolean; strategy?: string }[];
}

void describe('init --global', () => {
  let h: TmpHome;
  before(async () => {
    h = await makeTmpHome();
  });
  after(async () => {
    await h.cleanup();
  });

  void test('writes config.yml and both schemas; the config parses back and validates', async () => {
    const r = await runInProcess<InitJson>(['--json', 'init', '--global'], { env: h.env });
    assert.equal(r.code, 0, r.stderr);
    const configFile = join(h.configDir, 'config.yml');
    assert.deepEqual(r.json?.written, [
      configFile,
      join(h.configDir, 'config.schema.json'),
      join(h.configDir, 'recipe.schema.json'),
    ]);
    const v = await runInProcess<ValidateJson>(['--json', 'validate'], { env: h.env });
    assert.equal(v.code, 0, v.stdout + v.stderr);
    assert.equal(v.json?.ok, true);
    // Every field is written with the name the seed uses and its default.
    const values = parse(await readFile(configFile, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(
      Object.keys(values),
      GLOBAL_FIELDS.map((f) => f.key),
    );
    for (const f of GLOBAL_FIELDS) assert.deepEqual(values[f.key] ?? undefined, f.default, f.key);
  });

  void test('every field has a comment right above it and the file starts with the schema line', async () => {
    const text = await readFile(join(h.configDir, 'config.yml'), 'utf8');
    assert.equal(text.split('\n')[0], '# yaml-language-server: $schema=./config.schema.json');
    const lines = text.split('\n');
    for (const f of GLOBAL_FIELDS) {
      const at = lines.findIndex((l) => l === `${f.key}:` || l.startsWith(`${f.key}: `));
      assert.ok(at > 0, `${f.key} missing`);
      let c = at - 1;
      while (c >= 0 && lines[c]?.startsWith('#') && !lines[c]?.includes(f.description)) c--;
      assert.ok(c >= 0 && lines[c]?.startsWith('# '), `${f.key}: no comment with its description above it`);
    }
    // Comments are real YAML comments: the document has no warnings or errors.
    const doc = parseDocument(text);
    assert.deepEqual([doc.errors.length, doc.warnings.length], [0, 0]);
  });

  void test('the written schemas are JSON Schemas that accept the starter config and reject bad ones', async () => {
    const configSchema = JSON.parse(
      await readFile(join(h.configDir, 'config.schema.json'), 'utf8'),
    ) as Record<string, unknown>;
    const recipeSchema = JSON.parse(
      await readFile(join(h.configDir, 'recipe.schema.json'), 'utf8'),
    ) as Record<string, unknown>;
    for (const s of [configSchema, recipeSchema]) {
      assert.equal(s.$schema, 'https://json-schema.org/draft/2020-12/schema');
      assert.equal(s.type, 'object');
      assert.equal(s.additionalProperties, false);
      const props = s.properties as Record<string, { description?: string }>;
      for (const f of GLOBAL_FIELDS) {
        if (s === recipeSchema && f.globalOnly) {
          assert.equal(props[f.key], undefined, `${f.key} is config.yml only`);
          continue;
        }
        assert.ok(props[f.key]?.description, `${f.key} has no description`);
        for (const a of f.aliases) assert.ok(props[a], `alias ${a} missing`);
      }
    }
    assert.deepEqual(recipeSchema.required, ['name', 'strategy']);
    // zod compiles JSON Schema into a validator; an invalid schema throws here.
    const validateConfig = z.fromJSONSchema(configSchema);
    const starter = parse(await readFile(join(h.configDir, 'config.yml'), 'utf8')) as unknown;
    assert.equal(validateConfig.safeParse(starter).success, true);
    assert.equal(validateConfig.safeParse({ show_all: 'yes' }).success, false);
    assert.equal(validateConfig.safeParse({ no_such_key: 1 }).success, false);
    assert.equal(validateConfig.safeParse({ integration: false, github_token: 't' }).success, true);
    const validateRecipe = z.fromJSONSchema(recipeSchema);
    const direct = { strategy: 'direct', url: 'https://e.example/a', check_method: 'etag' };
    assert.equal(validateRecipe.safeParse({ name: 'a', strategy: direct }).success, true);
    assert.equal(validateRecipe.safeParse({ name: 'a', strategy: { strategy: 'torrent' } }).success, false);
    assert.equal(validateRecipe.safeParse({ strategy: direct }).success, false);
  });

  void test('a second init --global without --force is refused (exit 2) and keeps the file; --force rewrites it', async () => {
    const configFile = join(h.configDir, 'config.yml');
    await writeFile(configFile, 'show_all: true\n');
    const refused = await runInProcess<InitJson>(['--json', 'init', '--global'], { env: h.env });
    assert.equal(refused.code, 2);
    assert.equal(refused.json?.error?.code, 'FILE_EXISTS');
    assert.equal(await readFile(configFile, 'utf8'), 'show_all: true\n');
    const human = await runInProcess(['init', '--global'], { env: h.env });
    assert.equal(human.code, 2);
    assert.equal(human.stdout, '');
    assert.match(human.stderr, /already exists/);
    assert.match(human.stderr, /--force/);
    const forced = await runInProcess(['init', '--global', '--force'], { env: h.env });
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(await readFile(configFile, 'utf8'), /^# yaml-language-server/);
  });

  void test('init needs exactly one of --global and --app (exit 2)', async () => {
    for (const args of [['init'], ['init', '--global', '--app', 'x', '--strategy', 'forge']]) {
      const r = await runInProcess(args, { env: h.env });
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, /exactly one of --global or --app/);
    }
  });
});

void describe('init --app', () => {
  let h: TmpHome;
  before(async () => {
    h = await makeTmpHome();
  });
  after(async () => {
    await h.cleanup();
  });

  for (const strategy of ['forge', 'direct', 'script'] as const) {
    void test(`--strategy ${strategy} scaffolds a recipe that validates`, async () => {
      const name = `app-${strategy}`;
      const r = await runInProcess<InitJson>(['--json', 'init', '--app', name, '--strategy', strategy], {
        env: h.env,
      });
      assert.equal(r.code, 0, r.stderr);
      const dir = join(h.appsDir, name);
      const expected = [join(dir, `${name}.yml`)];
      if (strategy === 'script') expected.push(join(dir, 'resolver.sh'));
      assert.deepEqual(r.json?.written, expected);
      const text = await readFile(join(dir, `${name}.yml`), 'utf8');
      assert.equal(text.split('\n')[0], '# yaml-language-server: $schema=../../recipe.schema.json');
      await stat(join(h.configDir, 'recipe.schema.json'));
      if (strategy === 'script') {
        const mode = (await stat(join(dir, 'resolver.sh'))).mode;
        assert.equal(mode & 0o111, 0o111, `resolver.sh mode ${mode.toString(8)}`);
        assert.match(await readFile(join(dir, 'resolver.sh'), 'utf8'), /^#!\/usr\/bin\/env bash\n/);
      }
      // Untouched, the scaffold is refused and the placeholder named, at its position.
      const untouched = await runInProcess(['validate', name], { env: h.env });
      assert.equal(untouched.code, 1, untouched.stdout);
      const placeholder = {
        forge: 'OWNER/REPO',
        direct: 'https://example.com/',
        script: 'https://example.com/',
      };
      assert.match(
        untouched.stdout,
        new RegExp(`${name}\\.yml:6:\\d+: strategy\\.\\w+: .*placeholder ${placeholder[strategy]}`),
      );
      assert.match(untouched.stdout, /0 valid, 1 invalid/);
      // Replaced, it validates.
      const file = join(dir, strategy === 'script' ? 'resolver.sh' : `${name}.yml`);
      const replaced = (await readFile(file, 'utf8'))
        .replace('OWNER/REPO', 'someone/tool')
        .replace(/https:\/\/example\.com\//g, 'https://downloads.tool.test/');
      await writeFile(file, replaced);
      const v = await runInProcess<ValidateJson>(['--json', 'validate', name], { env: h.env });
      assert.equal(v.code, 0, v.stdout);
      assert.deepEqual(v.json?.apps, [{ name, file: join(dir, `${name}.yml`), ok: true, strategy }]);
    });
  }

  void test('an existing recipe is kept without --force; bad names and strategies are usage errors', async () => {
    const again = await runInProcess(['init', '--app', 'app-forge', '--strategy', 'direct'], { env: h.env });
    assert.equal(again.code, 2);
    assert.match(await readFile(join(h.appsDir, 'app-forge', 'app-forge.yml'), 'utf8'), /strategy: forge/);
    const forced = await runInProcess(['init', '--app', 'app-forge', '--strategy', 'direct', '--force'], {
      env: h.env,
    });
    assert.equal(forced.code, 0);
    assert.match(await readFile(join(h.appsDir, 'app-forge', 'app-forge.yml'), 'utf8'), /strategy: direct/);

    for (const args of [
      ['init', '--app', '../evil', '--strategy', 'forge'],
      ['init', '--app', 'ok', '--strategy', 'torrent'],
      ['init', '--app', 'ok', '--strategy', 'github'],
      ['init', '--app', 'ok'],
    ]) {
      const r = await runInProcess(args, { env: h.env });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
    }
  });

  void test('a forge or URL word for --strategy names the strategy to use, in the hint (human and JSON)', async () => {
    for (const [word, use] of [
      ['github', 'forge'],
      ['gitlab', 'forge'],
      ['gitea', 'forge'],
      ['url', 'direct'],
    ] as const) {
      const r = await runInProcess(['init', '--app', 'x', '--strategy', word], { env: h.env });
      assert.equal(r.code, 2);
      assert.match(
        r.stderr,
        new RegExp(`error: unknown strategy "${word}"\\n  hint: use --strategy ${use}: `),
      );
      const j = await runInProcess<{
        command: string;
        error: { code: string; message: string; hint: string };
      }>(['--json', 'init', '--app', 'x', '--strategy', word], { env: h.env });
      assert.equal(j.code, 2);
      assert.equal(j.json?.command, 'init');
      assert.equal(j.json?.error.code, 'USAGE');
      assert.match(j.json?.error.hint ?? '', new RegExp(`^use --strategy ${use}: `));
    }
    await assert.rejects(stat(join(h.appsDir, 'x')));
  });
});
