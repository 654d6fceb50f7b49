/**
 * Hostile releases of the tool itself: files whose digest and size the release states truthfully
 * but which are not our program (/bin/true, a truncated build, a build attested by someone else,
 * one that answers the wrong version or hangs). None may replace the executable. Then the kept
 * `.previous` and `--rollback`, including symlinks planted where they are written.
 */
import assert from 'node:assert/strict';
import { lstat, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { KeeperError } from '../../src/core/errors.js';
import { standaloneFileName } from '../../src/system/self-update/asset-name.js';
import { createTestCa } from '../helpers/attest-ca.js';
import {
  BUILD,
  hanging,
  OLD,
  ourWorkflow,
  printing,
  SIM_OWNER,
  useSelfUpdateWorld,
} from '../helpers/self-update-world.js';
import { sha256 } from '../helpers/sha256.js';

const BIN_TRUE = '/bin/true';
/** A build cut inside its code: still an ELF for this machine, but it cannot run. */
const truncated = (version: string) => printing(version).subarray(0, 130);

void describe('self-update authenticity', () => {
  const w = useSelfUpdateWorld();
  const standalone = (file: string) => ({ kind: 'standalone' as const, executable: file });

  /** Asserts the update fails with `code` (and `provenance` in details) and changes nothing. */
  async function assertRefused(
    code: string,
    opts: { insecure?: boolean; provenance?: string } = {},
  ): Promise<KeeperError> {
    const { dir, file } = await w.installed();
    let error: KeeperError | undefined;
    await assert.rejects(w.update(standalone(file), opts), (e: unknown) => {
      assert.ok(e instanceof KeeperError, String(e));
      assert.equal(e.code, code, e.message);
      if (opts.provenance) assert.equal(e.details?.provenance, opts.provenance, e.message);
      error = e;
      return true;
    });
    assert.deepEqual(await readFile(file), OLD, 'the executable is unchanged');
    assert.deepEqual(await readdir(dir), ['appimage-keeper'], 'no temp file and no .previous left');
    return error as KeeperError;
  }

  void it('refuses /bin/true served with its true digest and size (SELF_UPDATE_UNVERIFIED)', async () => {
    const body = await readFile(BIN_TRUE);
    w.publish('9.1.0', body, { size: body.length });
    await assertRefused('SELF_UPDATE_UNVERIFIED', { provenance: 'PROVENANCE_NONE' });
  });

  void it('refuses a truncated build with its true digest and size (SELF_UPDATE_UNVERIFIED)', async () => {
    const body = truncated('9.1.1\n');
    w.publish('9.1.1', body, { size: body.length });
    await assertRefused('SELF_UPDATE_UNVERIFIED');
  });

  void it('installs a build attested by our release workflow, keeps the old one, and reports who built it', async () => {
    const body = printing('9.2.0\n');
    w.publish('9.2.0', body, { attestedBy: ourWorkflow('v9.2.0'), size: body.length });
    const { dir, file } = await w.installed();
    const r = await w.update(standalone(file));
    assert.equal(r.status, 'updated');
    assert.ok(r.status === 'updated');
    assert.deepEqual(r.provenance, {
      signer_workflow:
        'https://github.com/appimage-keeper/appimage-keeper/.github/workflows/release.yml@refs/tags/v9.2.0',
      source_repository: 'https://github.com/appimage-keeper/appimage-keeper',
      source_commit: 'c0ffee'.padEnd(40, '0'),
      source_ref: 'refs/tags/v9.2.0',
    });
    assert.equal(r.previous, `${file}.previous`);
    assert.deepEqual(await readFile(file), body);
    assert.deepEqual(await readFile(`${file}.previous`), OLD);
    assert.deepEqual((await readdir(dir)).sort(), ['appimage-keeper', 'appimage-keeper.previous']);
  });

  const strangers: [string, () => Parameters<typeof ourWorkflow>[1], string][] = [
    [
      "another repository's release workflow",
      () => ({
        san: 'https://github.com/evil/appimage-keeper/.github/workflows/release.yml@refs/tags/v9.3.0',
        sourceRepository: 'https://github.com/evil/appimage-keeper',
      }),
      'PROVENANCE_IDENTITY',
    ],
    [
      'another workflow of our repository',
      () => ({
        san: 'https://github.com/appimage-keeper/appimage-keeper/.github/workflows/ci.yml@refs/heads/main',
      }),
      'PROVENANCE_IDENTITY',
    ],
    [
      'our workflow building another repository',
      () => ({ sourceRepository: 'https://github.com/evil/appimage-keeper' }),
      'PROVENANCE_IDENTITY',
    ],
    [
      'our workflow on another host',
      () => ({
        san: `${'https://github.example'}/appimage-keeper/appimage-keeper/.github/workflows/release.yml@refs/tags/v9.3.0`,
      }),
      'PROVENANCE_IDENTITY',
    ],
    [
      'a certificate from another OIDC issuer',
      () => ({ issuer: 'https://accounts.example.com' }),
      'PROVENANCE_IDENTITY',
    ],
  ];
  for (const [who, over, provenance] of strangers) {
    void it(`refuses a build attested by ${who} (SELF_UPDATE_UNVERIFIED, ${provenance})`, async () => {
      w.publish('9.3.0', printing('9.3.0\n'), { attestedBy: ourWorkflow('v9.3.0', over()) });
      await assertRefused('SELF_UPDATE_UNVERIFIED', { provenance });
    });
  }

  void it('refuses an attestation signed by a CA outside the trusted root', async () => {
    const other = createTestCa('someone else');
    try {
      w.publish('9.3.1', printing('9.3.1\n'), { attestedBy: ourWorkflow('v9.3.1'), ca: other });
      await assertRefused('SELF_UPDATE_UNVERIFIED', { provenance: 'PROVENANCE_STALE_ROOT' });
    } finally {
      other.dispose();
    }
  });

  void it('refuses our attestation of other bytes listed under this digest', async () => {
    const body = printing('9.3.2\n');
    w.publish('9.3.2', body);
    const other = w.ca.bundle(ourWorkflow('v9.3.2'), {
      predicateType: BUILD,
      subject: [{ digest: { sha256: sha256(printing('9.3.1\n')) } }],
    });
    w.sim.hub.setAttestations(SIM_OWNER, 'appimage-keeper', sha256(body), [other]);
    await assertRefused('SELF_UPDATE_UNVERIFIED', { provenance: 'PROVENANCE_SUBJECT' });
  });

  const misfits: [string, () => Promise<Buffer> | Buffer, RegExp][] = [
    ['/bin/true, attested', () => readFile(BIN_TRUE), /did not answer --version with 9\.4\.0/],
    ['a build that answers another version', () => printing('9.0.0\n'), /answered --version with "9\.0\.0"/],
    ['a truncated build, attested', () => truncated('9.4.0\n'), /did not answer/],
    ['a build that hangs after printing its version', () => hanging('9.4.0\n'), /within 5 s/],
  ];
  for (const [what, body, message] of misfits) {
    void it(`refuses ${what}, before the swap (SELF_UPDATE_SMOKE_FAILED)`, async () => {
      w.publish('9.4.0', await body(), { attestedBy: ourWorkflow('v9.4.0') });
      const started = Date.now();
      const e = await assertRefused('SELF_UPDATE_SMOKE_FAILED');
      assert.match(e.message, message);
      assert.ok(Date.now() - started < 8000, 'a hanging build is killed after 5 s');
    });
  }

  void it('--insecure installs an unattested build with a warning, and still runs the smoke test', async () => {
    w.publish('9.5.0', printing('9.5.0\n'));
    const { file } = await w.installed();
    w.events.length = 0;
    w.sim.clearRequests();
    const r = await w.update(standalone(file), { insecure: true });
    assert.equal(r.status, 'updated');
    assert.equal(r.status === 'updated' && r.provenance, null);
    const warning = w.events.find((e) => e.type === 'warning' && e.code === 'SELF_UPDATE_INSECURE');
    assert.ok(warning?.type === 'warning');
    assert.match(warning.message, /without checking that appimage-keeper's release workflow built it/);
    assert.ok(!w.sim.requests.some((q) => q.path.includes('/attestations/')), 'no attestation is asked for');
    assert.ok(
      w.sim.requests.some((q) => q.path.startsWith('/self/9.5.0/')),
      'the build was downloaded',
    );
    w.publish('9.5.1', await readFile(BIN_TRUE));
    await assertRefused('SELF_UPDATE_SMOKE_FAILED', { insecure: true });
  });

  void it('--rollback puts the previous executable back, and a second one undoes it', async () => {
    const body = printing('9.6.0\n');
    w.publish('9.6.0', body, { attestedBy: ourWorkflow('v9.6.0') });
    const { dir, file } = await w.installed();
    await w.update(standalone(file));
    const r = await w.update(standalone(file), { rollback: true });
    assert.deepEqual(r, {
      status: 'rolled_back',
      install: 'standalone',
      path: file,
      previous: `${file}.previous`,
    });
    assert.deepEqual(await readFile(file), OLD);
    assert.equal((await lstat(file)).mode & 0o777, 0o750, 'the old file keeps its mode');
    assert.deepEqual(await readFile(`${file}.previous`), body);
    await w.update(standalone(file), { rollback: true });
    assert.deepEqual(await readFile(file), body);
    assert.deepEqual((await readdir(dir)).sort(), ['appimage-keeper', 'appimage-keeper.previous']);
    // Run from the kept file (the new one may not start at all), it restores into <exe>.
    const fromPrevious = await w.update(standalone(`${file}.previous`), { rollback: true });
    assert.equal(fromPrevious.status === 'rolled_back' && fromPrevious.path, file);
    assert.deepEqual(await readFile(file), OLD);
    assert.deepEqual(await readFile(`${file}.previous`), body);
  });

  void it('--rollback without a .previous, or with a symlink there, fails and changes nothing', async () => {
    const { dir, file } = await w.installed();
    const refuse = async () =>
      assert.rejects(w.update(standalone(file), { rollback: true }), (e: unknown) => {
        assert.ok(e instanceof KeeperError);
        assert.equal(e.code, 'SELF_UPDATE_NO_PREVIOUS');
        return true;
      });
    await refuse();
    const victim = join(w.h.root, 'victim-rollback');
    await writeFile(victim, 'victim');
    await symlink(victim, `${file}.previous`);
    await refuse();
    assert.deepEqual(await readFile(file), OLD);
    assert.equal(await readlink(`${file}.previous`), victim);
    assert.equal(await readFile(victim, 'utf8'), 'victim');
    assert.deepEqual((await readdir(dir)).sort(), ['appimage-keeper', 'appimage-keeper.previous']);
    await assert.rejects(
      w.update({ kind: 'npm', script: file }, { rollback: true }),
      /SELF_UPDATE_NO_PREVIOUS|npm/,
    );
  });

  void it('replaces a symlink planted at <exe>.previous instead of writing through it', async () => {
    const body = printing('9.7.0\n');
    w.publish('9.7.0', body, { attestedBy: ourWorkflow('v9.7.0') });
    const { file } = await w.installed();
    const victim = join(w.h.root, 'victim-previous');
    await writeFile(victim, 'victim');
    await symlink(victim, `${file}.previous`);
    await w.update(standalone(file));
    assert.equal(await readFile(victim, 'utf8'), 'victim', 'the symlink target is untouched');
    assert.ok((await lstat(`${file}.previous`)).isFile(), '.previous is now a regular file');
    assert.deepEqual(await readFile(`${file}.previous`), OLD);
    assert.deepEqual(await readFile(file), body);
  });

  void it('keeps .previous beside the real file when the executable is reached through a symlink', async () => {
    const body = printing('9.8.0\n');
    w.publish('9.8.0', body, { attestedBy: ourWorkflow('v9.8.0') });
    const { dir, file } = await w.installed();
    const link = join(w.h.root, `link-${standaloneFileName('x', process.arch)}`);
    await symlink(file, link);
    const r = await w.update(standalone(link));
    assert.equal(r.status === 'updated' && r.previous, `${file}.previous`);
    assert.ok((await lstat(link)).isSymbolicLink(), 'the symlink stays a symlink');
    assert.deepEqual(await readFile(link), body);
    assert.deepEqual((await readdir(dir)).sort(), ['appimage-keeper', 'appimage-keeper.previous']);
  });
});
