// A run killed between the committing rename and the state save leaves an intent; the next run's
// recovery records what the install would have: the file, the kept previous version, and also the
// signature pin a first signed install sets and the release asset it installed (the replaced-asset
// guard needs it). A forged intent is ignored.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { recoverInstall } from '../../src/app/recover-install.js';
import { readIntent, writeIntent, type InstallIntent } from '../../src/state/intent.js';
import { StateStore } from '../../src/state/store.js';

let root = '';
let storage = '';
let stateDir = '';
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'ak-recover-'));
  storage = join(root, 'storage');
  stateDir = join(root, 'state');
  await mkdir(storage, { recursive: true });
  await mkdir(stateDir, { recursive: true });
});
after(async () => rm(root, { recursive: true, force: true }));

const NOW = new Date('2026-11-23T05:00:00Z');
const PIN = {
  fingerprint: 'A'.repeat(40),
  pinnedBy: 'first-install' as const,
  pinnedAt: NOW.toISOString(),
  publicKey: 'bXkga2V5',
  lastVerified: {
    version: '2.0.0',
    signerKeyId: 'AAAAAAAAAAAAAAAA',
    hashAlgorithm: 'SHA256',
    mode: 'binary' as const,
    signedAt: null,
    at: NOW.toISOString(),
  },
};

async function committedIntent(app: string, extra: Partial<InstallIntent>): Promise<InstallIntent> {
  const body = Buffer.from(`${app} 2.0.0`);
  const file = join(storage, `${app}.AppImage`);
  await writeFile(file, body);
  return {
    app,
    installed: {
      version: '2.0.0',
      identity: 'id-2',
      file,
      url: 'https://dl.test/x',
      size: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
      installedAt: NOW.toISOString(),
    },
    previous: undefined,
    staged: undefined,
    oldFile: undefined,
    ...extra,
  };
}

void test('recovery records the signature pin and the release asset the interrupted install carried', async () => {
  const assets = {
    '2.0.0\u0000signed-2.0.0.AppImage': { sha256: 'ab'.repeat(32), size: 12, installedAt: NOW.toISOString() },
  };
  await writeIntent(stateDir, await committedIntent('signed', { signature: PIN, releaseAssets: assets }));
  const store = await StateStore.load(stateDir, NOW, () => undefined);
  assert.equal(await recoverInstall(store, stateDir, 'signed', 'forge', [storage]), 'committed');
  const s = store.app('signed');
  assert.equal(s?.installed?.version, '2.0.0');
  assert.deepEqual(s?.signature, PIN);
  assert.deepEqual(s?.releaseAssets, assets);
  assert.equal(readIntent(stateDir, 'signed'), undefined, 'the intent is cleared');
});

void test('an intent without them keeps what state had', async () => {
  const store = await StateStore.load(stateDir, NOW, () => undefined);
  store.updateApp('plain', 'direct', (s) => ({ ...s, signature: PIN }));
  await store.save();
  await writeIntent(stateDir, await committedIntent('plain', {}));
  assert.equal(await recoverInstall(store, stateDir, 'plain', 'direct', [storage]), 'committed');
  assert.deepEqual(store.app('plain')?.signature, PIN);
});

void test('an intent with a malformed pin is not used at all', async () => {
  const intent = await committedIntent('forged', {});
  await mkdir(join(stateDir, 'pending'), { recursive: true });
  const bad = { ...intent, signature: { ...PIN, fingerprint: 'not hex' } };
  await writeFile(join(stateDir, 'pending', 'forged.json'), JSON.stringify(bad));
  assert.equal(readIntent(stateDir, 'forged'), undefined);
  const good = { ...intent, signature: PIN };
  await writeFile(join(stateDir, 'pending', 'forged.json'), JSON.stringify(good));
  assert.deepEqual(readIntent(stateDir, 'forged')?.signature, PIN);
});
