/**
 * The standalone executable (`npm run build:standalone`): built once here, then run with a PATH
 * that has no `node` for --version (naming the pinned runtime it embeds), validate, an update against the sim, a timer that runs it, and
 * a self-update of a copy of it: refused unattested, installed with --insecure, rolled back.
 */
import assert from 'node:assert/strict';
import { access, copyFile, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildRuntime } from '../../fixtures/runtime.js';
import { standaloneFileName } from '../../src/system/self-update/asset-name.js';
import { buildStandalone } from '../../scripts/build-standalone.js';
import { nodePinFor } from '../../scripts/node-runtime.js';
import { pkg } from '../../scripts/bundle-options.mjs';
import { disposeFixtureAppImages, fixtureAppImage } from '../helpers/fixture-appimages.js';
import { publishHubRelease } from '../helpers/hub-release.js';
import { runCli } from '../helpers/run-cli.js';
import { execInstalled } from '../helpers/run-program.js';
import { createTestCa } from '../helpers/attest-ca.js';
import { BUILD, ourWorkflow } from '../helpers/self-update-world.js';
import { sha256 } from '../helpers/sha256.js';
import { makeSimWorld } from '../helpers/sim-world.js';
import { useSimSuite } from '../helpers/sim-suite.js';

void describe('standalone executable', () => {
  const suite = useSimSuite(makeSimWorld, disposeFixtureAppImages);
  let out = '';
  let exe = '';
  let noNode = '';

  before(async () => {
    out = await mkdtemp(join(tmpdir(), 'ak-standalone-'));
    ({ file: exe } = await buildStandalone(out));
    // A PATH with nothing on it: no node, and no tool the CLI could fall back to.
    noNode = join(out, 'path-without-node');
    await mkdir(noNode);
  });
  after(async () => {
    await rm(out, { recursive: true, force: true });
  });

  void it('is one file named for its version and architecture', async () => {
    assert.equal(exe, join(out, standaloneFileName(pkg.version, process.arch)));
    assert.ok(((await stat(exe)).mode & 0o111) !== 0, 'executable');
    await assert.rejects(access(join(noNode, 'node')), 'no node on the test PATH');
  });

  void it('prints its version with no node on PATH', async () => {
    const r = await runCli(['--version'], { program: exe, env: { PATH: noNode, HOME: out } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${pkg.version}\n`);
    assert.equal(r.stderr, '', 'no experimental-feature warning');
  });

  void it("embeds the pinned Node.js runtime, not the machine's node, and names it with --version --verbose", async () => {
    const pin = nodePinFor(process.arch);
    const r = await runCli(['--version', '--verbose'], { program: exe, env: { PATH: noNode, HOME: out } });
    assert.equal(r.code, 0, r.stderr);
    const [version, runtime] = r.stdout.split('\n');
    assert.equal(version, pkg.version);
    assert.ok(
      runtime?.startsWith(`Node.js v${pin.version} (embedded in the standalone executable)`),
      `${runtime} (this machine's node is ${process.version})`,
    );
    assert.equal(r.stderr, '');
  });

  void it('validates and updates an app from the sim with no node on PATH', async () => {
    const w = await suite.world();
    await w.writeForgeRecipe('hello');
    publishHubRelease(suite.sim, 'hello', '1.0.0', await fixtureAppImage('hello', '1.0.0'));
    const env = { ...w.env, PATH: noNode };
    const validate = await runCli(['validate'], { program: exe, env });
    assert.equal(validate.code, 0, validate.stdout + validate.stderr);
    assert.match(validate.stdout, /1 valid, 0 invalid/);
    const update = await runCli<{ apps: { name: string; status: string; path: string }[] }>(
      ['update', '--json'],
      { program: exe, env },
    );
    assert.equal(update.code, 0, update.stderr);
    const app = update.json?.apps[0];
    assert.equal(app?.status, 'updated', update.stdout);
    assert.equal(await execInstalled(app?.path ?? ''), 'hello 1.0.0');
  });

  void it('schedule install points the timer at the executable alone, and doctor runs it', async () => {
    const w = await suite.world();
    const env = { ...w.env, PATH: noNode };
    const r = await runCli<{ exec_start: string[]; program_kind: string; warnings: string[] }>(
      ['--json', 'schedule', 'install'],
      { program: exe, env },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(r.json?.exec_start, [exe, '--quiet', 'update']);
    assert.equal(r.json?.program_kind, 'standalone');
    assert.deepEqual(r.json?.warnings, []);
    const service = await readFile(
      join(w.home.root, 'config', 'systemd', 'user', 'appimage-keeper.service'),
      'utf8',
    );
    assert.match(service, new RegExp(`^ExecStart="${exe}" "--quiet" "update"$`, 'm'));
    assert.doesNotMatch(service, /^Environment=/m, 'a binary needs no PATH');
    const doctor = await runCli<{ checks: { id: string; status: string; message: string }[] }>(
      ['--json', 'doctor'],
      { program: exe, env },
    );
    const check = doctor.json?.checks.find((c) => c.id === 'schedule');
    assert.equal(check?.status, 'ok', doctor.stdout);
    assert.equal(check?.message, `the timer runs ${exe} (${pkg.version})`);
  });

  void it('schedule install writes the man page the unit names, and schedule remove deletes it', async () => {
    const w = await suite.world();
    const env = { ...w.env, PATH: noNode };
    const man = join(w.home.dataHome, 'man', 'man1', 'appimage-keeper.1');
    const r = await runCli<{ files: string[] }>(['--json', 'schedule', 'install'], { program: exe, env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(r.json?.files.includes(man), r.stdout);
    const service = await readFile(
      join(w.home.root, 'config', 'systemd', 'user', 'appimage-keeper.service'),
      'utf8',
    );
    assert.match(service, /^Documentation=man:appimage-keeper\(1\)$/m);
    const page = await readFile(man, 'utf8');
    assert.match(page, /^\.TH APPIMAGE-KEEPER 1 .*"appimage-keeper \d/m);
    assert.match(page, /^\.B appimage\\-keeper schedule \[options\] <action>$/m);
    const removed = await runCli<{ files: string[] }>(['--json', 'schedule', 'remove'], {
      program: exe,
      env,
    });
    assert.equal(removed.code, 0, removed.stdout + removed.stderr);
    assert.ok(removed.json?.files.includes(man), removed.stdout);
    await assert.rejects(access(man), 'the man page is gone');
  });

  void it('self-update refuses an unattested release, --insecure installs it with a warning, and the kept .previous rolls back', async () => {
    const w = await suite.world();
    const bin = join(w.home.root, 'opt');
    await mkdir(bin);
    const copy = join(bin, 'appimage-keeper');
    await copyFile(exe, copy);
    const original = sha256(await readFile(copy));
    const body = buildRuntime({ message: '99.0.0\n', arch: 'x86_64' });
    const name = standaloneFileName('99.0.0', process.arch);
    const url = suite.sim.putAsset(`/ak/99.0.0/${name}`, body);
    suite.sim.hub.setLatest('ak', 'appimage-keeper', {
      tag: 'v99.0.0',
      assets: [{ name, url, digest: `sha256:${sha256(body)}` }],
    });
    // An attestation by a test CA, whose root the environment names: a published build (this one
    // has no test hooks) must not trust it.
    const ca = createTestCa();
    try {
      suite.sim.hub.setAttestations('ak', 'appimage-keeper', sha256(body), [
        ca.bundle(ourWorkflow('v99.0.0'), {
          predicateType: BUILD,
          subject: [{ name, digest: { sha256: sha256(body) } }],
        }),
      ]);
      const env = { ...w.env, PATH: noNode, APPIMAGE_KEEPER_TEST_TRUSTED_ROOT: ca.trustedRootFile };
      const args = ['self-update', '--repository', `${suite.sim.url}/ak/appimage-keeper`, '--json'];
      const refused = await runCli<{ error: { code: string; details?: { provenance?: string } } }>(args, {
        program: copy,
        env,
      });
      assert.equal(refused.code, 1, refused.stdout + refused.stderr);
      assert.equal(refused.json?.error.code, 'SELF_UPDATE_UNVERIFIED', refused.stdout);
      assert.equal(refused.json?.error.details?.provenance, 'PROVENANCE_STALE_ROOT', refused.stdout);
      assert.equal(sha256(await readFile(copy)), original, 'the executable is unchanged');

      const r = await runCli<{ status: string; latest: string; previous: string; provenance: null }>(
        [...args, '--insecure'],
        { program: copy, env },
      );
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.equal(r.json?.status, 'updated');
      assert.equal(r.json?.provenance, null);
      assert.equal(r.json?.previous, `${copy}.previous`);
      assert.match(r.stderr, /warning: .*--insecure: installing .* without checking/);
      assert.deepEqual(await readFile(copy), body);
      assert.equal(await execInstalled(copy), '99.0.0');
    } finally {
      ca.dispose();
    }
    // The new executable is not our tool: the kept one, run by its own name, puts itself back.
    const back = await runCli<{ status: string; path: string }>(['self-update', '--rollback', '--json'], {
      program: `${copy}.previous`,
      env: { ...w.env, PATH: noNode },
    });
    assert.equal(back.code, 0, back.stdout + back.stderr);
    assert.equal(back.json?.status, 'rolled_back');
    assert.equal(back.json?.path, copy);
    assert.equal(sha256(await readFile(copy)), original);
    assert.deepEqual(await readFile(`${copy}.previous`), body);
    const version = await runCli(['--version'], { program: copy, env: { PATH: noNode, HOME: out } });
    assert.equal(version.stdout, `${pkg.version}\n`);
    const usage = await runCli(['self-update', '--rollback', '--force'], { program: copy, env: w.env });
    assert.equal(usage.code, 2, usage.stderr);
  });
});
