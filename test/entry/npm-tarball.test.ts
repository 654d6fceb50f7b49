/**
 * The release tarball: `npm pack` makes appimage-keeper-<version>.tgz with the bundled CLI only,
 * `npm install -g --prefix <tmp> --offline <file>` installs a working binary with no dependency
 * tree, and that install's self-update (and `update --self`, `auto_self_update`) gives the update
 * command instead of touching npm's files.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { access, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildRuntime } from '../../fixtures/runtime.js';
import { standaloneFileName } from '../../src/system/self-update/asset-name.js';
import { pkg } from '../../scripts/bundle-options.mjs';
import { CLI_PATH, REPO_ROOT, runCli } from '../helpers/run-cli.js';
import { sha256 } from '../helpers/sha256.js';
import { makeSimWorld } from '../helpers/sim-world.js';
import { makeTmpHome } from '../helpers/tmp-home.js';
import { useSimSuite } from '../helpers/sim-suite.js';

interface PackResult {
  filename: string;
  files: { path: string }[];
}

function npm(args: string[], env: NodeJS.ProcessEnv, cwd = REPO_ROOT): string {
  const r = spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `npm ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

interface SelfJson {
  status: string;
  install: string;
  latest: string;
  command: string;
}

void describe('release tarball', () => {
  const suite = useSimSuite(makeSimWorld);
  let dir = '';
  let pack: PackResult;
  let prefix = '';
  let env: NodeJS.ProcessEnv = {};

  before(async () => {
    await access(CLI_PATH).catch(() => assert.fail(`${CLI_PATH} is missing: run npm run build first`));
    dir = await mkdtemp(join(tmpdir(), 'ak-tarball-'));
    prefix = join(dir, 'prefix');
    // A cache of our own: --offline then proves the install needs nothing from the registry.
    env = { ...process.env, npm_config_cache: join(dir, 'npm-cache'), npm_config_update_notifier: 'false' };
    // --ignore-scripts: the suite already built dist/; rebuilding here would race the other tests.
    const out = npm(['pack', '--ignore-scripts', '--pack-destination', dir, '--json'], env);
    pack = (JSON.parse(out) as PackResult[])[0] as PackResult;
    npm(
      ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', join(dir, pack.filename)],
      env,
    );
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  void it('is appimage-keeper-<version>.tgz holding the bundled CLI, its man page, completions and nothing else', () => {
    assert.equal(pack.filename, `appimage-keeper-${pkg.version}.tgz`);
    const files = pack.files.map((f) => f.path).sort();
    // The CLI's chunks have content-hashed names; each is an ES module with its source map.
    const chunks = files.filter((f) => f.startsWith('dist/chunks/'));
    assert.ok(chunks.includes('dist/chunks/cli.mjs'), 'the CLI the launcher imports');
    for (const c of chunks) assert.match(c, /^dist\/chunks\/[\w-]+\.mjs(\.map)?$/);
    // One copy of each library, in the chunks: no second bundle beside them.
    assert.deepEqual(
      files.filter((f) => !chunks.includes(f)),
      [
        'LICENSE',
        'README.md',
        'dist/appimage-keeper.1',
        'dist/appimage-keeper.cjs',
        'dist/appimage-keeper.cjs.map',
        'dist/completions/_appimage-keeper',
        'dist/completions/appimage-keeper.bash',
        'dist/completions/appimage-keeper.fish',
        'package.json',
      ],
    );
  });

  void it('installs offline into a prefix with no dependency tree, and the binary runs', async () => {
    const installed = join(prefix, 'lib', 'node_modules', 'appimage-keeper');
    assert.deepEqual((await readdir(installed)).sort(), ['LICENSE', 'README.md', 'dist', 'package.json']);
    const r = await runCli(['--version'], { program: join(prefix, 'bin', 'appimage-keeper'), env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${pkg.version}\n`);
    // `validate` loads the CLI's chunks beside the launcher, reached through npm's bin link.
    const home2 = await makeTmpHome();
    try {
      await home2.writeRecipe(
        'alpha',
        'name: alpha\nstrategy:\n  strategy: forge\n  repository: https://github.com/example/alpha\n',
      );
      const validate = await runCli(['validate'], {
        program: join(prefix, 'bin', 'appimage-keeper'),
        env: home2.env,
      });
      assert.equal(validate.code, 0, validate.stderr);
      assert.match(validate.stdout, /^1 valid, 0 invalid$/m);
    } finally {
      await home2.cleanup();
    }
    // Through npm's bin link the launcher still finds its completion scripts (the real folder).
    const completion = await runCli(['completion', 'zsh'], {
      program: join(prefix, 'bin', 'appimage-keeper'),
      env,
    });
    assert.equal(completion.code, 0, completion.stderr);
    assert.equal(
      completion.stdout,
      await readFile(join(installed, 'dist', 'completions', '_appimage-keeper'), 'utf8'),
    );
    // A command the launcher hands on: the installed chunks load (in a HOME of our own).
    const home = await makeTmpHome();
    try {
      await home.writeRecipe(
        'krita',
        'name: krita\nstrategy:\n  strategy: direct\n  url: https://dl.test/k.AppImage\n',
      );
      const list = await runCli(['list', '--names'], {
        program: join(prefix, 'bin', 'appimage-keeper'),
        env: home.env,
      });
      assert.deepEqual([list.code, list.stdout], [0, 'krita\n'], list.stderr);
    } finally {
      await home.cleanup();
    }
  });

  void it('installs the man page where man finds it', async () => {
    const page = await readFile(join(prefix, 'share', 'man', 'man1', 'appimage-keeper.1'), 'utf8');
    assert.match(page, /^\.TH APPIMAGE-KEEPER 1 /);
    assert.equal(page, await readFile(join(REPO_ROOT, 'dist', 'appimage-keeper.1'), 'utf8'));
  });

  function publishSelf(owner: string, version: string, withTarball: boolean): string | undefined {
    const body = buildRuntime({ message: `appimage-keeper ${version}\n`, arch: 'x86_64' });
    const name = standaloneFileName(version, process.arch);
    const url = suite.sim.putAsset(`/${owner}/${version}/${name}`, body);
    const tgz = withTarball
      ? suite.sim.putAsset(`/${owner}/${version}/appimage-keeper-${version}.tgz`, Buffer.from('tgz'))
      : undefined;
    suite.sim.hub.setLatest(owner, 'appimage-keeper', {
      tag: `v${version}`,
      assets: [
        { name, url, digest: `sha256:${sha256(body)}` },
        ...(tgz ? [{ name: `appimage-keeper-${version}.tgz`, url: tgz }] : []),
      ],
    });
    return tgz;
  }

  void it('self-update of the npm install prints the npm command and changes no file', async () => {
    const w = await suite.world();
    const tgz = publishSelf('mirror', '50.0.0', true);
    const bin = join(prefix, 'bin', 'appimage-keeper');
    const before = await readFile(
      join(prefix, 'lib', 'node_modules', 'appimage-keeper', 'dist', 'appimage-keeper.cjs'),
    );
    const r = await runCli(['self-update', '--repository', `${suite.sim.url}/mirror/appimage-keeper`], {
      program: bin,
      env: { ...w.env, PATH: env.PATH },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`${pkg.version} → 50\\.0\\.0.*\\n  npm install -g ${tgz ?? ''}\\n$`));
    const after = await readFile(
      join(prefix, 'lib', 'node_modules', 'appimage-keeper', 'dist', 'appimage-keeper.cjs'),
    );
    assert.ok(before.equals(after));
  });

  void it('update --self runs self-update after the apps (npm install: the command)', async () => {
    // The built-in repository is on the hub's host, so with the hub API pointed at the sim it
    // resolves there: `update --self` has no --repository.
    const w = await suite.world();
    publishSelf('appimage-keeper', '51.0.0', false);
    const r = await runCli<{ self_update: SelfJson }>(['update', '--self', '--json'], {
      program: join(prefix, 'bin', 'appimage-keeper'),
      env: w.env,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json?.self_update.status, 'manual');
    assert.equal(r.json?.self_update.install, 'npm');
    assert.equal(r.json?.self_update.command, 'npm install -g appimage-keeper@51.0.0');
  });

  void it('a release tag with control characters reaches the terminal escaped', async () => {
    const w = await suite.world();
    const body = buildRuntime({ message: 'x\n', arch: 'x86_64' });
    const name = standaloneFileName('60.0.0', process.arch);
    const url = suite.sim.putAsset(`/evil/${name}`, body);
    suite.sim.hub.setLatest('evil', 'appimage-keeper', {
      tag: 'v60\u001b[2J\u001b]0;pwned\u0007',
      assets: [{ name, url, digest: `sha256:${sha256(body)}` }],
    });
    const r = await runCli(['self-update', '--repository', `${suite.sim.url}/evil/appimage-keeper`], {
      env: w.env,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes('\u001b'), JSON.stringify(r.stdout));
    assert.match(r.stdout, /→ v60\\x1b\[2J\\x1b\]0;pwned\\x07;/);
  });

  void it('a failed self-update after the apps makes update exit 1 and is reported', async () => {
    const w = await suite.world();
    suite.sim.fault(/\/repos\/appimage-keeper\/appimage-keeper\//, { status: 404 });
    try {
      const r = await runCli<{ self_update: { status: string; error: { code: string } } }>(
        ['update', '--self', '--json'],
        { env: w.env },
      );
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.json?.self_update.status, 'failed');
      assert.match(r.json?.self_update.error.code ?? '', /^FORGE_/);
      const human = await runCli(['update', '--self'], { env: w.env });
      assert.equal(human.code, 1);
      assert.match(human.stdout, /failed appimage-keeper: /);
    } finally {
      suite.sim.clearFaults();
    }
  });

  void it('auto_self_update: true in config.yml does the same on a plain update; false does not', async () => {
    publishSelf('appimage-keeper', '52.0.0', false);
    const on = await suite.world({ configLines: ['auto_self_update: true'] });
    const r = await runCli<{ self_update: SelfJson }>(['update', '--json'], { env: on.env });
    assert.equal(r.code, 0, r.stderr);
    // Run from this clone's dist/: the advice is the clone's commands.
    assert.equal(r.json?.self_update.install, 'source');
    assert.equal(r.json?.self_update.latest, '52.0.0');
    assert.match(r.json?.self_update.command ?? '', /git pull && npm ci && npm run build$/);
    const human = await runCli(['update'], { env: on.env });
    assert.match(human.stdout, /update available appimage-keeper .* → 52\.0\.0/);
    const off = await suite.world();
    const plain = await runCli<Record<string, unknown>>(['update', '--json'], { env: off.env });
    assert.equal(plain.code, 0);
    assert.ok(!('self_update' in (plain.json ?? {})));
  });
});
