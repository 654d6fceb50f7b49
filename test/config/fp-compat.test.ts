/**
 * What fp-appimage-updater accepts loads with the same meaning: every config dir from its
 * documentation (../shared/corpus/fp-docs), its URL templates, app names with spaces or accents,
 * `naming_format` without `{name}`, scripts outside the recipe folder.
 */
import assert from 'node:assert/strict';
import { chmod, cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { runCli } from '../../src/main.js';
import { forgeUrlBase } from '../../src/config/forge-url-template.js';
import { patternsIntersect } from '../../src/config/file-collisions.js';
import { routeRepository } from '../../src/sources/forges.js';
import { appFileName } from '../../src/core/file-names.js';
import { renderFileName, tempPrefix } from '../../src/install/naming.js';
import { ourName } from '../../src/install/desktop-names.js';
import { corpusFile, skipWithoutCorpus } from '../helpers/corpus.js';
import { directRecipe, failedApp, load, okApp, withHome } from './workspace-fixture.js';

void describe('fp-appimage-updater documentation configs', { skip: skipWithoutCorpus() }, () => {
  void test('every config dir of its README and docs validates', (t) =>
    withHome(async (h) => {
      const docs = corpusFile('fp-docs') ?? '';
      const copy = join(h.root, 'fp-docs');
      await cp(docs, copy, { recursive: true });
      const dirs = (await readdir(copy)).sort();
      const results: string[] = [];
      for (const d of dirs) {
        await chmod(join(copy, d), 0o755);
        // The corpus leaves resolver scripts out (as the examples do): write one where a recipe names it.
        const hayase = join(copy, d, 'apps', 'hayase');
        if (await readdir(hayase).catch(() => undefined)) {
          await chmod(hayase, 0o755);
          await writeFile(join(hayase, 'resolver.sh'), '#!/bin/bash\necho https://example.com/a\necho 1\n');
        }
        const ws = await load(h, h.env, join(copy, d));
        const bad = ws.apps.filter((a) => !a.ok);
        results.push(
          `${d}: ${bad.length ? `invalid: ${bad.map((a) => (a.ok ? '' : a.error.message)).join('; ')}` : 'ok'}`,
        );
      }
      const ok = results.filter((r) => r.endsWith(': ok'));
      t.diagnostic(`fp-docs: ${ok.length} of ${dirs.length} config dirs validate`);
      assert.deepEqual(
        results.filter((r) => !r.endsWith(': ok')),
        [],
      );
      assert.equal(ok.length, dirs.length);
    }));

  void test('the config.yml fp init --global writes loads (auto_self_update is known)', () =>
    withHome(async (h) => {
      const dir = corpusFile('fp-docs', 'fpinit');
      assert.ok(dir);
      const ws = await load(h, h.env, dir);
      assert.equal(ws.global.auto_self_update, false);
      assert.deepEqual(ws.global.hub_proxy_prefix, 'all');
    }));
});

void describe('hub and lab URL overrides: base URLs and fp templates', () => {
  void test('templates reduce to the base URL; base URLs stay', () => {
    const cases: [string, Parameters<typeof forgeUrlBase>[1], string][] = [
      [
        'https://api.example.com/repos/{account}/{repository}/releases/latest',
        'hub-api',
        'https://api.example.com',
      ],
      [
        'https://ghe.example.com/api/v3/repos/{repo_path}/releases/latest',
        'hub-api',
        'https://ghe.example.com/api/v3',
      ],
      [
        'https://ghe.example.com/api/v3/repos/{account}/{repository}',
        'hub-api',
        'https://ghe.example.com/api/v3',
      ],
      ['https://example.com/{account}/{repository}', 'hub-web', 'https://example.com'],
      [
        'https://gitlab.example.com/api/v4/projects/{project_path}/releases/permalink/latest',
        'lab-api',
        'https://gitlab.example.com/api/v4',
      ],
      ['https://gitlab.example.com/{repo_path}', 'lab-web', 'https://gitlab.example.com'],
      ['https://ghe.example.com/api/v3/', 'hub-api', 'https://ghe.example.com/api/v3'],
    ];
    for (const [value, kind, base] of cases) assert.deepEqual(forgeUrlBase(value, kind), { base }, value);
    const wrong = forgeUrlBase('https://api.example.com/{repository}/x/{account}', 'hub-api');
    assert.ok('error' in wrong && /\/repos\/\{account\}\/\{repository\}\/releases\/latest/.test(wrong.error));
  });

  void test('a config.yml with fp templates routes requests like the base form', () =>
    withHome(async (h) => {
      await h.writeConfig(
        [
          'github_release_api_url: "https://ghe.example.com/api/v3/repos/{account}/{repository}/releases/latest"',
          'github_release_web_url: "https://ghe.example.com/{account}/{repository}"',
          'gitlab_release_api_url: "https://lab.example.com/api/v4/projects/{project_path}/releases/permalink/latest"',
          'gitlab_release_web_url: "https://lab.example.com/{repo_path}"',
          '',
        ].join('\n'),
      );
      const ws = await load(h);
      assert.equal(ws.global.hub_release_api_url, 'https://ghe.example.com/api/v3');
      assert.deepEqual(routeRepository('https://ghe.example.com/o/r', ws.global), {
        kind: 'hub',
        apiBase: 'https://ghe.example.com/api/v3',
        owner: 'o',
        repo: 'r',
      });
      assert.deepEqual(routeRepository('https://lab.example.com/g/sub/p', ws.global), {
        kind: 'lab',
        apiBase: 'https://lab.example.com/api/v4',
        path: 'g/sub/p',
      });
    }));

  void test('a template with placeholders elsewhere is a positioned error with the accepted form', () =>
    withHome(async (h) => {
      await h.writeConfig('show_all: false\ngithub_release_api_url: "https://x.example/{account}.json"\n');
      await assert.rejects(load(h), (err: Error) => {
        assert.match(
          err.message,
          /config\.yml:2:25: github_release_api_url: template placeholders must name/,
        );
        return true;
      });
    }));
});

void describe('app names: any one line of text, one file-name rule', () => {
  void test('the rule keeps safe names and cleans the rest', () => {
    assert.equal(appFileName('obsidian'), 'obsidian');
    assert.equal(appFileName('Tool+Plus-1.0'), 'Tool+Plus-1.0');
    assert.equal(appFileName('My App'), 'My_App');
    assert.equal(appFileName('_private'), 'private');
    assert.equal(appFileName('Café Ünïcode'), 'Cafe_Unicode');
    assert.equal(appFileName('../../etc/passwd'), 'etc_passwd');
    assert.equal(appFileName('.hidden'), 'hidden');
    assert.match(appFileName('日本語'), /^app-[0-9a-f]{8}$/);
    assert.notEqual(appFileName('日本語'), appFileName('中文'));
    assert.equal(renderFileName('{name}-{version}.AppImage', 'My App', '1.0'), 'My_App-1.0.AppImage');
    assert.equal(tempPrefix('My App'), '.appimage-keeper~My_App~');
    assert.equal(ourName('My App'), 'appimage-keeper-My_App');
  });

  void test('"My App", "_tool" and "Café" load; names equal once cleaned are duplicates', () =>
    withHome(async (h) => {
      await h.writeRecipe('a', directRecipe('My App'));
      await h.writeRecipe('b', directRecipe('_tool'));
      await h.writeRecipe('c', directRecipe('Café'));
      await h.writeRecipe('d', directRecipe('cafe'));
      const ws = await load(h);
      okApp(ws, 'My App');
      okApp(ws, '_tool');
      assert.equal(failedApp(ws, 'Café').error.code, 'RECIPE_DUPLICATE');
      assert.equal(failedApp(ws, 'cafe').error.code, 'RECIPE_DUPLICATE');
    }));
});

void describe('naming_format without {name}', () => {
  void test('fp docs’ CurseForge-{version}.AppImage is fine alone', () =>
    withHome(async (h) => {
      await h.writeRecipe(
        'curseforge',
        directRecipe('curseforge', { naming_format: 'CurseForge-{version}.AppImage' }),
      );
      await h.writeRecipe('other', directRecipe('other'));
      const ws = await load(h);
      assert.equal(okApp(ws, 'curseforge').naming_format, 'CurseForge-{version}.AppImage');
      okApp(ws, 'other');
    }));

  void test('two apps that can produce the same file fail, naming each other', () =>
    withHome(async (h) => {
      await h.writeRecipe('one', directRecipe('one', { naming_format: 'Shared-{version}.AppImage' }));
      await h.writeRecipe('two', directRecipe('two', { naming_format: 'Shared-{version}.AppImage' }));
      // A literal name that one of the patterns can produce (version "1.0").
      await h.writeRecipe('three', directRecipe('three', { naming_format: 'Shared-1.0.AppImage' }));
      await h.writeRecipe('apart', directRecipe('apart', { naming_format: 'Apart-{version}.AppImage' }));
      const ws = await load(h);
      for (const name of ['one', 'two', 'three']) {
        const app = failedApp(ws, name);
        assert.equal(app.error.code, 'RECIPE_DUPLICATE', name);
      }
      assert.match(failedApp(ws, 'one').error.message, /two\/two\.yml/);
      okApp(ws, 'apart');
    }));

  void test('pattern intersection', () => {
    const V = '\0';
    assert.equal(patternsIntersect(`a-${V}.AppImage`, 'a-1.AppImage'), true);
    assert.equal(patternsIntersect(`a-${V}.AppImage`, `b-${V}.AppImage`), false);
    assert.equal(patternsIntersect(`${V}-x`, `y-${V}`), true);
    assert.equal(patternsIntersect('x.AppImage', 'y.AppImage'), false);
  });
});

void describe('resolver scripts outside the recipe folder', () => {
  void test('../shared.sh and an absolute path are the user’s own files: allowed when they are regular files', () =>
    withHome(async (h) => {
      await mkdir(h.appsDir, { recursive: true });
      const shared = join(h.appsDir, 'shared.sh');
      await writeFile(shared, '#!/bin/bash\necho https://example.com/a\necho 1\n', { mode: 0o755 });
      const script = (path: string) => `name: NAME\nstrategy:\n  strategy: script\n  script_path: ${path}\n`;
      await h.writeRecipe('rel', script('../shared.sh').replace('NAME', 'rel'));
      await h.writeRecipe('abs', script(shared).replace('NAME', 'abs'));
      await h.writeRecipe('dir', script('/tmp').replace('NAME', 'dir'));
      const ws = await load(h);
      assert.equal((okApp(ws, 'rel').strategy as { script_path: string }).script_path, shared);
      assert.equal((okApp(ws, 'abs').strategy as { script_path: string }).script_path, shared);
      assert.match(failedApp(ws, 'dir').error.message, /"\/tmp" is not a regular file/);
    }));
});

void describe('nothing below apps/ is ignored silently', () => {
  void test('validate and doctor list what was not read', () =>
    withHome(async (h) => {
      await h.writeRecipe('ok', directRecipe('ok'));
      await symlink('missing.yml', join(h.appsDir, 'broken.yml'));
      const run = async (argv: string[]) => {
        let stdout = '';
        const sink = new Writable({
          write(chunk: Buffer, _e, done) {
            stdout += chunk.toString();
            done();
          },
        });
        const code = await runCli({ argv, env: h.env, stdout: sink, stderr: new PassThrough() });
        return { code, stdout };
      };
      const v = await run(['validate']);
      assert.equal(v.code, 0);
      assert.match(v.stdout, new RegExp(`skip ${join(h.appsDir, 'broken.yml')}: broken link or unreadable`));
      const d = await run(['doctor', '--json']);
      const checks = (JSON.parse(d.stdout) as { checks: { id: string; status: string; message: string }[] })
        .checks;
      const files = checks.find((c) => c.id === 'recipe-files');
      assert.equal(files?.status, 'warn');
      assert.match(files?.message ?? '', /broken\.yml \(broken link or unreadable\)/);
    }));
});

void describe('a forge recipe without asset_match', () => {
  void test('validates (fp takes every asset; the resolver then takes the AppImages by architecture)', () =>
    withHome(async (h) => {
      await h.writeRecipe(
        'bare',
        'name: bare\nstrategy:\n  strategy: forge\n  repository: https://github.com/o/r\n',
      );
      const s = okApp(await load(h), 'bare').strategy;
      assert.ok(s.strategy === 'forge' && s.asset_match === undefined && s.asset_match_regex === undefined);
    }));
});
