/**
 * The runtime the standalone build embeds (scripts/node-runtime.ts), fetched with the real npm
 * client from a loopback registry this test serves: a tarball matching the pinned integrity is
 * kept in the cache and unpacked, one that does not is refused before anything of it is unpacked
 * or run, and a cached tarball that changed is fetched again.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nodeRuntime, verifiedRuntimeTarball, type NodePin } from '../../scripts/node-runtime.js';

const PKG = 'node-linux-test';
const VERSION = '24.99.1';

/** A package tarball whose bin/node answers `--version` with `answer`. */
async function packageTarball(dir: string, answer: string): Promise<Buffer> {
  const root = await mkdtemp(join(dir, 'pkg-'));
  await mkdir(join(root, 'package', 'bin'), { recursive: true });
  await writeFile(join(root, 'package', 'package.json'), JSON.stringify({ name: PKG, version: VERSION }));
  await writeFile(join(root, 'package', 'bin', 'node'), `#!/bin/sh\necho ${answer}\n`, { mode: 0o755 });
  const r = spawnSync('tar', ['-czf', '-', '-C', root, 'package']);
  assert.equal(r.status, 0, r.stderr?.toString());
  return r.stdout;
}

const integrity = (b: Buffer) => `sha512-${createHash('sha512').update(b).digest('base64')}`;

void describe('the pinned Node.js runtime of the standalone build', () => {
  let dir = '';
  let server: Server;
  let served: Buffer = Buffer.alloc(0);
  let requests = 0;
  let npmEnv: NodeJS.ProcessEnv = {};
  let genuine: Buffer;
  let pin: NodePin;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ak-node-runtime-'));
    genuine = await packageTarball(dir, `v${VERSION}`);
    pin = { pkg: PKG, version: VERSION, integrity: integrity(genuine) };
    // The registry states the integrity of what it serves: npm accepts it, the pin must not.
    server = createServer((req, res) => {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      if (req.url === `/${PKG}`) {
        const dist = { tarball: `${base}/${PKG}/-/${PKG}-${VERSION}.tgz`, integrity: integrity(served) };
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            name: PKG,
            'dist-tags': { latest: VERSION },
            versions: { [VERSION]: { name: PKG, version: VERSION, dist } },
          }),
        );
      } else if (req.url === `/${PKG}/-/${PKG}-${VERSION}.tgz`) {
        requests++;
        res.end(served);
      } else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    npmEnv = {
      PATH: process.env.PATH,
      HOME: dir,
      npm_config_registry: `http://127.0.0.1:${port}/`,
      npm_config_cache: join(dir, 'npm-cache'),
      npm_config_userconfig: join(dir, 'npmrc'),
      npm_config_update_notifier: 'false',
    };
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  void it('refuses a tarball that does not match the pinned integrity, and keeps none of it', async () => {
    served = await packageTarball(dir, 'v0.0.0-evil');
    const cacheDir = join(dir, 'cache-refused');
    const unpack = await mkdtemp(join(dir, 'unpack-'));
    await assert.rejects(nodeRuntime({ pin, cacheDir, npmEnv }, unpack), /not the pinned sha512-/);
    assert.deepEqual(await readdir(cacheDir), [], 'nothing cached');
    assert.deepEqual(await readdir(unpack), [], 'nothing unpacked');
  });

  void it('fetches the pinned tarball once, caches it, and unpacks a bin/node that answers its version', async () => {
    served = genuine;
    const cacheDir = join(dir, 'cache-ok');
    const before = requests;
    const node = await nodeRuntime({ pin, cacheDir, npmEnv }, await mkdtemp(join(dir, 'unpack-')));
    assert.match(await readFile(node, 'utf8'), new RegExp(`echo v${VERSION}`));
    await nodeRuntime({ pin, cacheDir, npmEnv }, await mkdtemp(join(dir, 'unpack-')));
    assert.equal(requests - before, 1, 'the second build used the cache');
    assert.deepEqual(await readdir(cacheDir), [`${PKG}-${VERSION}.tgz`]);
  });

  void it('fetches again when the cached tarball changed', async () => {
    served = genuine;
    const cacheDir = join(dir, 'cache-tampered');
    const file = await verifiedRuntimeTarball({ pin, cacheDir, npmEnv });
    await writeFile(file, await packageTarball(dir, 'v6.6.6'));
    assert.equal(await verifiedRuntimeTarball({ pin, cacheDir, npmEnv }), file);
    assert.deepEqual(await readFile(file), genuine);
  });

  void it('refuses a bin/node that answers another version', async () => {
    served = await packageTarball(dir, 'v20.20.2');
    const lying = { ...pin, integrity: integrity(served) };
    await assert.rejects(
      nodeRuntime(
        { pin: lying, cacheDir: join(dir, 'cache-lying'), npmEnv },
        await mkdtemp(join(dir, 'unpack-')),
      ),
      /answers --version with v20\.20\.2/,
    );
  });
});
