// The OpenPGP verifier against GnuPG as the oracle: keys and signatures made by `gpg --batch` at
// test time (RSA, Ed25519, ECDSA P-256; text and binary mode; SHA-1, SHA-256, SHA-512; a signing
// subkey), each checked by us and by `gpg --verify`, untouched and tampered.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createGpgHome, gpgRun, type GpgHome, type GpgKeyType } from '../../fixtures/gpg.js';
import { crc24, dearmor } from '../../src/trust/openpgp/armor.js';
import { PgpError } from '../../src/trust/openpgp/errors.js';
import { checkDetached, parseDetachedSignature, parseKeyBlock } from '../../src/trust/openpgp/key-block.js';
import { parsePackets } from '../../src/trust/openpgp/packets.js';
import { parsePublicKey } from '../../src/trust/openpgp/public-key.js';

const DIGEST = Buffer.from('b000f400d5be2dbaa520c5aab097eab3547a284673bb072ef85b1de6e82eb646', 'latin1');

void describe('OpenPGP detached signatures (gpg as the oracle)', () => {
  let gpg: GpgHome;
  let dir: string;
  const keys: Partial<Record<GpgKeyType | 'subkey', { fpr: string; armored: Buffer; signer: string }>> = {};

  before(async () => {
    gpg = await createGpgHome();
    dir = await mkdtemp(join(tmpdir(), 'ak-pgp-'));
    for (const type of ['rsa2048', 'ed25519', 'nistp256'] as const) {
      const fpr = await gpg.generateKey(type, `Oracle ${type} <${type}@example.invalid>`);
      keys[type] = { fpr, armored: Buffer.from(await gpg.exportKey(fpr)), signer: fpr };
    }
    const primary = await gpg.generateKey('ed25519', 'Oracle subkey <sub@example.invalid>');
    const sub = await gpg.addSigningSubkey(primary, 'ed25519');
    keys.subkey = { fpr: primary, armored: Buffer.from(await gpg.exportKey(primary)), signer: sub };
  });
  after(async () => {
    await gpg.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  /** gpg's own verdict on `sig` over `data`. */
  async function gpgSays(sig: string, data: Buffer): Promise<boolean> {
    const name = randomBytes(6).toString('hex');
    await writeFile(join(dir, `${name}.asc`), sig);
    await writeFile(join(dir, `${name}.dat`), data);
    return (
      (await gpgRun(gpg.home, ['--verify', join(dir, `${name}.asc`), join(dir, `${name}.dat`)])).code === 0
    );
  }

  const matrix: [GpgKeyType | 'subkey', 'text' | 'binary', 'SHA1' | 'SHA256' | 'SHA512'][] = [
    ['rsa2048', 'binary', 'SHA1'],
    ['rsa2048', 'text', 'SHA1'],
    ['rsa2048', 'binary', 'SHA256'],
    ['rsa2048', 'text', 'SHA512'],
    ['ed25519', 'text', 'SHA256'],
    ['ed25519', 'binary', 'SHA512'],
    ['nistp256', 'text', 'SHA256'],
    ['nistp256', 'binary', 'SHA256'],
    ['subkey', 'text', 'SHA256'],
  ];
  for (const [type, mode, digest] of matrix) {
    void test(`${type}, ${mode} mode, ${digest}: verifies, and a changed digest does not (as gpg says)`, async () => {
      const k = keys[type];
      assert.ok(k);
      const sig = await gpg.sign(DIGEST, { key: k.signer, mode, digest });
      const block = parseKeyBlock(k.armored);
      assert.equal(block.primary.fingerprint, k.fpr);
      const parsed = parseDetachedSignature(Buffer.from(sig));
      assert.equal(parsed.type, mode === 'text' ? 1 : 0);
      const good = checkDetached(parsed, DIGEST, block.primary, block);
      assert.equal(good.kind, 'good');
      assert.equal(good.kind === 'good' && good.viaSubkey, type === 'subkey');
      assert.equal(await gpgSays(sig, DIGEST), true);
      const changed = Buffer.from(DIGEST);
      changed[0] = 0x61;
      assert.equal(checkDetached(parsed, changed, block.primary, block).kind, 'bad');
      assert.equal(await gpgSays(sig, changed), false);
    });
  }

  void test('text mode canonicalises line ends: LF data verifies against a CRLF-hashed signature', async () => {
    const k = keys.rsa2048;
    assert.ok(k);
    const data = Buffer.from('line one\nline two\n');
    const sig = await gpg.sign(data, { key: k.fpr, mode: 'text', digest: 'SHA256' });
    const block = parseKeyBlock(k.armored);
    assert.equal(
      checkDetached(parseDetachedSignature(Buffer.from(sig)), data, block.primary, block).kind,
      'good',
    );
    assert.equal(await gpgSays(sig, Buffer.from('line one\r\nline two\r\n')), true);
    const crlf = checkDetached(
      parseDetachedSignature(Buffer.from(sig)),
      Buffer.from('line one\r\nline two\r\n'),
      block.primary,
      block,
    );
    assert.equal(crlf.kind, 'good');
  });

  void test("another key's signature is `other-key`, not bad", async () => {
    const a = keys.rsa2048;
    const b = keys.ed25519;
    assert.ok(a && b);
    const sig = parseDetachedSignature(
      Buffer.from(await gpg.sign(DIGEST, { key: b.fpr, mode: 'text', digest: 'SHA256' })),
    );
    const blockA = parseKeyBlock(a.armored);
    const r = checkDetached(sig, DIGEST, blockA.primary, blockA);
    assert.equal(r.kind, 'other-key');
  });

  void test('a subkey without a verifiable binding is unsupported, never a pass', async () => {
    const k = keys.subkey;
    assert.ok(k);
    const sig = parseDetachedSignature(
      Buffer.from(await gpg.sign(DIGEST, { key: k.signer, mode: 'text', digest: 'SHA256' })),
    );
    const block = parseKeyBlock(k.armored);
    for (const s of block.subkeys) s.bindings = [];
    assert.throws(
      () => checkDetached(sig, DIGEST, block.primary, block),
      (e) => e instanceof PgpError && e.kind === 'unsupported',
    );
  });

  void test('armour: a CRC-24 mismatch and non-base64 bodies are malformed', async () => {
    const k = keys.ed25519;
    assert.ok(k);
    const sig = await gpg.sign(DIGEST, { key: k.fpr, mode: 'text', digest: 'SHA256' });
    const lines = sig.split('\n');
    const crcAt = lines.findIndex((l) => /^=[A-Za-z0-9+/]{4}$/.test(l));
    if (crcAt >= 0) {
      const bad = [...lines];
      bad[crcAt] = bad[crcAt] === '=AAAA' ? '=AAAB' : '=AAAA';
      assert.throws(() => dearmor(bad.join('\n'), 'PGP SIGNATURE'), /CRC-24/);
    }
    assert.throws(() => dearmor(sig.replace(/\n([A-Za-z0-9+/])/, '\n*$1'), 'PGP SIGNATURE'), /base64/);
    assert.throws(() => dearmor('no armour here', 'PGP SIGNATURE'), /BEGIN/);
    assert.equal(crc24(Buffer.alloc(0)), 0xb704ce);
  });

  void test('v5 keys and partial lengths are unsupported; truncated packets malformed', () => {
    assert.throws(
      () => parsePublicKey(Buffer.from([5, 0, 0, 0, 0, 22])),
      (e) => e instanceof PgpError && e.kind === 'unsupported',
    );
    assert.throws(
      () => parsePackets(Buffer.from([0xc2, 0xe1, 1, 2])),
      (e) => e instanceof PgpError && e.kind === 'unsupported',
    );
    assert.throws(
      () => parsePackets(Buffer.from([0xc2, 0x10, 1, 2])),
      (e) => e instanceof PgpError && e.kind === 'malformed',
    );
  });

  void test('hostile bytes: 3000 mutations of real keys and signatures only ever throw PgpError', async () => {
    const k = keys.rsa2048;
    const e = keys.subkey;
    assert.ok(k && e);
    const sigs = [
      dearmor(await gpg.sign(DIGEST, { key: k.fpr, mode: 'binary', digest: 'SHA256' }), 'PGP SIGNATURE'),
      dearmor(await gpg.sign(DIGEST, { key: e.signer, mode: 'text', digest: 'SHA256' }), 'PGP SIGNATURE'),
    ];
    const blocks = [
      dearmor(k.armored.toString(), 'PGP PUBLIC KEY BLOCK'),
      dearmor(e.armored.toString(), 'PGP PUBLIC KEY BLOCK'),
    ];
    let seed = 1;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let i = 0; i < 3000; i++) {
      const sigBytes = Buffer.from(sigs[i % 2] as Buffer);
      const keyBytes = Buffer.from(blocks[i % 2] as Buffer);
      const target = i % 3 === 0 ? keyBytes : sigBytes;
      for (let j = 0; j <= rand(3); j++) target[rand(target.length)] = rand(256);
      try {
        const block = parseKeyBlock(keyBytes);
        checkDetached(parseDetachedSignature(sigBytes), DIGEST, block.primary, block);
      } catch (err) {
        assert.ok(err instanceof PgpError, `mutation ${i} threw ${String(err)}`);
      }
    }
  });
});
