// Embedded AppImage signatures end to end: real AppImages signed at test time by GnuPG (RSA and
// Ed25519, text and binary mode, SHA-1 and SHA-256), served by the sim, installed by the built CLI.
// Every refusal must keep v1 installed, runnable and in state, say why, and exit 1.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createGpgHome, type GpgHome } from '../../../fixtures/gpg.js';
import type { SignOptions } from '../../../fixtures/sign-appimage.js';
import { BIG_PAD_BYTES, publish, useUpdateSuite, type World } from '../update/harness.js';
import { disposeFixtures as disposeZsyncFixtures, zsyncmake } from '../zsync/harness.js';
import { fixtureAppImage, type FixtureOptions } from '../../helpers/fixture-appimages.js';
import { appOf } from '../../helpers/json-output.js';
import type { CliRun } from '../../helpers/run-cli.js';
import type { UpdateJson } from '../../helpers/update-json.js';
import { execInstalled, runProgram } from '../../helpers/run-program.js';
import { sha256 } from '../../helpers/sha256.js';
import { tempFiles } from '../../helpers/temp-files.js';

const CORPUS_TOOL = join(
  import.meta.dirname,
  '../../../../shared/corpus/appimages/appimagetool-x86_64.AppImage',
);
const V1 = '1.0.0';
const V2 = '2.0.0';

interface ListedSignature {
  fingerprint: string;
  pinned_by: string;
  last_verified: { version: string; hash_algorithm: string; mode: string; signer_key_id: string } | null;
}

void describe('update: embedded signatures (key continuity)', { concurrency: true }, () => {
  const suite = useUpdateSuite();
  let gpg: GpgHome;
  let rsa: string;
  let ed: string;

  before(async () => {
    gpg = await createGpgHome();
    rsa = await gpg.generateKey('rsa2048', 'Fixture RSA <rsa@example.invalid>');
    ed = await gpg.generateKey('ed25519', 'Fixture Ed25519 <ed@example.invalid>');
  });
  after(async () => {
    await gpg.dispose();
    await disposeZsyncFixtures();
  });

  const signed =
    (
      key: () => string,
      mode: 'text' | 'binary',
      digest: 'SHA1' | 'SHA256',
      more: Partial<SignOptions> = {},
    ) =>
    (): FixtureOptions => ({ sign: { gnupgHome: gpg.home, key: key(), mode, digest, ...more } });
  const unsigned = (): FixtureOptions => ({ signatureSections: true });

  /** Installs v1 built with `first`, then publishes v2 built with `second` (or `body`) and updates. */
  async function twoVersions(
    app: string,
    first: () => FixtureOptions,
    second: () => FixtureOptions,
    opts: { recipe?: string; recipeV2?: string; tamper?: boolean } = {},
  ) {
    const w = await suite.world('manage_desktop_files: false');
    await w.forgeRecipe(app, opts.recipe ?? '');
    await publish(suite.sim, app, V1, { body: await fixtureAppImage(app, V1, first()) });
    const run1 = await w.update();
    assert.equal(run1.code, 0, run1.stdout + run1.stderr);
    assert.equal(appOf(run1, app).status, 'updated');
    const pinAfterV1 = await listedSignature(w, app);
    let body = await fixtureAppImage(app, V2, second());
    if (opts.tamper) {
      // One byte of the payload (far past the runtime) changes after signing.
      body = Buffer.from(body);
      const at = body.length - 100;
      body[at] = (body[at] ?? 0) ^ 0x01;
    }
    if (opts.recipeV2 !== undefined) await w.forgeRecipe(app, opts.recipeV2);
    await publish(suite.sim, app, V2, { body });
    const run2 = await w.update();
    return { w, run2, o: appOf(run2, app), pinAfterV1 };
  }

  async function listedSignature(w: World, app: string): Promise<ListedSignature | null> {
    const run = (await w.cli(['--json', 'list'])) as CliRun<{
      apps: { name: string; signature: ListedSignature | null }[];
    }>;
    assert.equal(run.code, 0, run.stderr);
    return appOf(run, app).signature;
  }

  /** v1 is still what is installed: in state, on disk, runnable; no temp file was left behind. */
  async function keptV1(w: World, app: string): Promise<void> {
    const state = await w.state();
    const installed = state.apps[app]?.installed;
    assert.equal(installed?.version, V1);
    assert.equal(await execInstalled(installed.file), `${app} ${V1}`);
    assert.deepEqual(await tempFiles(w.storageDir), []);
  }

  function assertUpdated(r: Awaited<ReturnType<typeof twoVersions>>): void {
    assert.equal(r.run2.code, 0, r.run2.stdout + r.run2.stderr);
    assert.equal(r.o.status, 'updated');
  }

  function assertRefused(r: Awaited<ReturnType<typeof twoVersions>>, code: string, message: RegExp): void {
    assert.equal(r.run2.code, 1, r.run2.stdout + r.run2.stderr);
    assert.equal(r.o.status, 'failed');
    assert.equal(r.o.error?.code, code, JSON.stringify(r.o.error));
    assert.match(r.o.error?.message ?? '', message);
  }

  void test('unsigned → unsigned passes under tofu and pins nothing', async () => {
    const r = await twoVersions('sunsig', unsigned, unsigned);
    assertUpdated(r);
    assert.equal(r.pinAfterV1, null);
    assert.equal(await listedSignature(r.w, 'sunsig'), null);
  });

  void test('signed → signed by the pinned key passes (RSA binary SHA-256, then text mode)', async () => {
    const r = await twoVersions(
      'ssame',
      signed(() => rsa, 'binary', 'SHA256'),
      signed(() => rsa, 'text', 'SHA256'),
    );
    assertUpdated(r);
    assert.deepEqual(r.o.warnings, []);
    assert.equal(r.pinAfterV1?.fingerprint, rsa);
    assert.equal(r.pinAfterV1?.pinned_by, 'first-install');
    assert.equal(r.pinAfterV1?.last_verified?.mode, 'binary');
    const now = await listedSignature(r.w, 'ssame');
    assert.equal(now?.fingerprint, rsa);
    assert.equal(now?.last_verified?.version, V2);
    assert.equal(now?.last_verified?.mode, 'text');
    assert.equal(now?.last_verified?.hash_algorithm, 'SHA256');
    assert.ok(r.o.path);
    assert.equal(await execInstalled(r.o.path), `ssame ${V2}`);
  });

  void test('Ed25519 text mode → Ed25519 binary mode passes', async () => {
    const r = await twoVersions(
      'sed',
      signed(() => ed, 'text', 'SHA256'),
      signed(() => ed, 'binary', 'SHA256'),
    );
    assert.equal(r.run2.code, 0, r.run2.stdout + r.run2.stderr);
    assert.equal((await listedSignature(r.w, 'sed'))?.fingerprint, ed);
  });

  void test('a new key → SIG_KEY_CHANGED, v1 kept', async () => {
    const r = await twoVersions(
      'skey',
      signed(() => ed, 'text', 'SHA256'),
      signed(() => rsa, 'text', 'SHA256'),
    );
    assertRefused(r, 'SIG_KEY_CHANGED', new RegExp(`not by the pinned key ${ed}`));
    await keptV1(r.w, 'skey');
    assert.equal((await listedSignature(r.w, 'skey'))?.fingerprint, ed);
  });

  void test("a new key carrying the pinned key in .sig_key → SIG_KEY_CHANGED (the file's key is never trusted)", async () => {
    const r = await twoVersions(
      'skeyfake',
      signed(() => rsa, 'binary', 'SHA256'),
      () => signed(() => ed, 'text', 'SHA256', { embedKey: rsa })(),
    );
    assertRefused(r, 'SIG_KEY_CHANGED', /not by the pinned key/);
    await keptV1(r.w, 'skeyfake');
  });

  void test('signed → unsigned → SIG_REMOVED, v1 kept', async () => {
    const r = await twoVersions(
      'sremoved',
      signed(() => rsa, 'text', 'SHA256'),
      unsigned,
    );
    assertRefused(
      r,
      'SIG_REMOVED',
      new RegExp(`${V2} is not signed, but earlier versions were signed by key ${rsa}`),
    );
    await keptV1(r.w, 'sremoved');
  });

  void test('a byte changed after signing → SIG_BAD, v1 kept', async () => {
    const r = await twoVersions(
      'sbad',
      signed(() => rsa, 'binary', 'SHA256'),
      signed(() => rsa, 'binary', 'SHA256'),
      {
        tamper: true,
      },
    );
    assertRefused(r, 'SIG_BAD', /does not match the file/);
    await keptV1(r.w, 'sbad');
  });

  void test('signature: require refuses an unsigned update (SIG_MISSING), v1 kept', async () => {
    const r = await twoVersions('sreq', unsigned, unsigned, { recipeV2: 'signature: require' });
    assertRefused(r, 'SIG_MISSING', /carries no embedded signature/);
    await keptV1(r.w, 'sreq');
  });

  void test('SHA-1 signatures pass with a SIG_LEGACY warning under tofu', async () => {
    const r = await twoVersions(
      'slegacy',
      signed(() => rsa, 'binary', 'SHA1'),
      signed(() => rsa, 'binary', 'SHA1'),
    );
    assertUpdated(r);
    assert.equal(r.o.warnings.length, 1);
    assert.match(r.o.warnings[0] ?? '', /SHA1.*legacy/);
    assert.equal((await listedSignature(r.w, 'slegacy'))?.last_verified?.hash_algorithm, 'SHA1');
  });

  void test('signature: require refuses a SHA-1 signature (SIG_LEGACY), v1 kept', async () => {
    const r = await twoVersions(
      'slegreq',
      signed(() => rsa, 'text', 'SHA256'),
      signed(() => rsa, 'binary', 'SHA1'),
      {
        recipeV2: 'signature: require',
      },
    );
    assertRefused(r, 'SIG_LEGACY', /SHA1/);
    await keptV1(r.w, 'slegreq');
  });

  void test('signing_key pins before the first install: another key is refused, that key passes', async () => {
    const w = await suite.world('manage_desktop_files: false');
    await w.forgeRecipe('spinned', `signing_key: "${ed.replace(/(.{4})/g, '$1 ')}"`);
    await publish(suite.sim, 'spinned', V1, {
      body: await fixtureAppImage('spinned', V1, signed(() => rsa, 'text', 'SHA256')()),
    });
    const run1 = await w.update();
    assert.equal(run1.code, 1, run1.stdout + run1.stderr);
    assert.equal(appOf(run1, 'spinned').error?.code, 'SIG_KEY_CHANGED');
    assert.equal((await w.state()).apps.spinned?.installed, undefined);
    await publish(suite.sim, 'spinned', V2, {
      body: await fixtureAppImage('spinned', V2, signed(() => ed, 'text', 'SHA256')()),
    });
    const run2 = await w.update();
    assert.equal(run2.code, 0, run2.stdout + run2.stderr);
    const pin = await listedSignature(w, 'spinned');
    assert.equal(pin?.fingerprint, ed);
    assert.equal(pin?.pinned_by, 'signing_key');
  });

  for (const [app, big] of [
    ['spass', false],
    ['spassseg', true],
  ] as const) {
    void test(`the signed digest comes from the download's SHA-256 pass (${big ? 'segmented' : 'plain'})`, async () => {
      const w = await suite.world('manage_desktop_files: false');
      await w.forgeRecipe(app);
      const opts = signed(() => ed, 'text', 'SHA256')();
      await publish(suite.sim, app, V1, {
        body: await fixtureAppImage(app, V1, big ? { ...opts, padBytes: BIG_PAD_BYTES } : opts),
      });
      const run = (await w.cli(['--json', '-v', 'update'])) as CliRun<UpdateJson>;
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal(appOf(run, app).method, big ? 'segmented' : 'plain');
      assert.match(
        run.stderr,
        new RegExp(`signature verified: key ${ed}.*signed digest computed in the SHA-256 pass`),
      );
      const state = await w.state();
      assert.equal(await execInstalled(state.apps[app]?.installed?.file ?? ''), `${app} ${V1}`);
    });
  }

  void test('the signed digest comes from the SHA-256 pass of a zsync result too', async () => {
    const w = await suite.world('manage_desktop_files: false');
    await w.forgeRecipe('szsync', 'zsync: true');
    const opts = signed(() => ed, 'text', 'SHA256')();
    await publish(suite.sim, 'szsync', V1, { body: await fixtureAppImage('szsync', V1, opts) });
    const run1 = await w.update();
    assert.equal(run1.code, 0, run1.stdout + run1.stderr);
    const body = await fixtureAppImage('szsync', V2, opts);
    const v2 = await publish(suite.sim, 'szsync', V2, { body });
    suite.sim.putAsset(`${v2.path}.zsync`, await zsyncmake(body, v2.assetName));
    const run = (await w.cli(['--json', '-v', 'update'])) as CliRun<UpdateJson>;
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(appOf(run, 'szsync').method, 'zsync');
    assert.match(run.stderr, /signature verified: .*signed digest computed in the SHA-256 pass/);
  });

  void test('a DSA signature cannot be checked → SIG_UNSUPPORTED, never a pass; v1 kept', async () => {
    const dsa = await gpg.generateKey('dsa2048', 'Fixture DSA <dsa@example.invalid>');
    const r = await twoVersions(
      'sdsa',
      unsigned,
      signed(() => dsa, 'text', 'SHA256'),
    );
    assertRefused(r, 'SIG_UNSUPPORTED', /algorithm 17 cannot be verified/);
    await keptV1(r.w, 'sdsa');
  });

  void test('the real appimagetool (RSA, SHA-1, 2018) installs and pins; one flipped byte → SIG_BAD', async (t) => {
    const real = await readFile(CORPUS_TOOL).catch(() => undefined);
    if (!real) {
      t.skip(`corpus not found at ${CORPUS_TOOL}`);
      return;
    }
    const flipped = Buffer.from(real);
    flipped[300_000] = (flipped[300_000] ?? 0) ^ 0x80;
    const w = await suite.world('manage_desktop_files: false');
    await w.forgeRecipe('appimagetool');
    await publish(suite.sim, 'appimagetool', V1, { body: real });
    const run1 = await w.update();
    assert.equal(run1.code, 0, run1.stdout + run1.stderr);
    assert.match(appOf(run1, 'appimagetool').warnings.join('\n'), /SHA1/);
    const pin = await listedSignature(w, 'appimagetool');
    assert.equal(pin?.fingerprint, '8D69575148A524659002855E65B43840101B2DC4');
    await publish(suite.sim, 'appimagetool', V2, { body: flipped });
    const run2 = await w.update();
    assert.equal(run2.code, 1, run2.stdout + run2.stderr);
    assert.equal(appOf(run2, 'appimagetool').error?.code, 'SIG_BAD');
    const installed = (await w.state()).apps.appimagetool?.installed;
    assert.equal(installed?.version, V1);
    assert.equal(installed?.sha256, sha256(real));
    assert.equal(sha256(await readFile(installed?.file ?? '')), sha256(real));
    const info = await runProgram(installed?.file ?? '', ['--appimage-updateinformation'], {
      timeoutMs: 10_000,
    });
    assert.match(info, /gh-releases-zsync\|AppImage\|AppImageKit/);
  });

  void test('signature: off installs a tampered file without looking', async () => {
    const r = await twoVersions(
      'soff',
      signed(() => rsa, 'binary', 'SHA256'),
      signed(() => rsa, 'binary', 'SHA256'),
      {
        tamper: true,
        recipeV2: 'signature: off',
      },
    );
    assertUpdated(r);
  });
});
