// The real signed AppImage of the corpus (appimagetool, RSA, binary mode, SHA-1, 2018): its embedded
// signature verifies with its own key and with that key pinned, and fails once one byte changes.
import assert from 'node:assert/strict';
import { access, copyFile, chmod, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readEmbeddedSignature } from '../../src/appimage/embedded-signature.js';
import { verifyEmbeddedSignature } from '../../src/appimage/signature-verify.js';
import { KeeperError } from '../../src/core/errors.js';

const CORPUS = join(import.meta.dirname, '../../../shared/corpus/appimages');
const TOOL = join(CORPUS, 'appimagetool-x86_64.AppImage');
const FINGERPRINT = '8D69575148A524659002855E65B43840101B2DC4';

void describe('the corpus appimagetool signature', async () => {
  const present = await access(TOOL).then(
    () => true,
    () => false,
  );
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ak-corpus-sig-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  void test(
    'verifies with its own key (pinned on first use) and with the pinned key',
    { skip: !present && `corpus not found at ${TOOL}` },
    async () => {
      const embedded = await readEmbeddedSignature(TOOL);
      assert.ok(embedded);
      const first = await verifyEmbeddedSignature(TOOL, embedded, undefined);
      assert.equal(first.fingerprint, FINGERPRINT);
      assert.equal(first.hashAlgorithm, 'SHA1');
      assert.equal(first.legacy, true);
      assert.equal(first.mode, 'binary');
      assert.equal(first.signedAt?.toISOString(), '2018-04-05T23:16:58.000Z');
      const again = await verifyEmbeddedSignature(TOOL, embedded, {
        fingerprint: FINGERPRINT,
        publicKey: first.publicKey,
      });
      assert.equal(again.digest, first.digest);
    },
  );

  void test(
    'fails with SIG_BAD after one byte is flipped',
    { skip: !present && `corpus not found at ${TOOL}` },
    async () => {
      const copy = join(dir, 'flipped.AppImage');
      await copyFile(TOOL, copy);
      await chmod(copy, 0o644);
      const fh = await open(copy, 'r+');
      try {
        const b = Buffer.alloc(1);
        await fh.read(b, 0, 1, 300_000);
        b[0] = (b[0] ?? 0) ^ 0x80;
        await fh.write(b, 0, 1, 300_000);
      } finally {
        await fh.close();
      }
      const embedded = await readEmbeddedSignature(copy);
      assert.ok(embedded);
      await assert.rejects(
        verifyEmbeddedSignature(copy, embedded, undefined),
        (e) => e instanceof KeeperError && e.code === 'SIG_BAD',
      );
      await assert.rejects(
        verifyEmbeddedSignature(copy, embedded, { fingerprint: FINGERPRINT }),
        (e) => e instanceof KeeperError && e.code === 'SIG_BAD',
      );
    },
  );

  void test(
    'the unsigned corpus AppImage reads as unsigned',
    { skip: !present && `corpus not found at ${CORPUS}` },
    async () => {
      assert.equal(await readEmbeddedSignature(join(CORPUS, 'Hello_World-x86_64.gzip.AppImage')), undefined);
    },
  );
});
