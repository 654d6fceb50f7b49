import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { json, raw } from './raw-http.js';

const CLI = fileURLToPath(new URL('../../sim/cli.ts', import.meta.url));

function startCli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return { child, lines, stderr: () => stderr };
}

void test('the CLI loads a fixture, prints its URLs and stops on SIGTERM', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ak-'));
  let cli: ReturnType<typeof startCli> | undefined;
  try {
    await writeFile(join(dir, 'app.bin'), 'file asset');
    await writeFile(
      join(dir, 'fixture.json'),
      JSON.stringify({
        assets: [
          { path: '/dl/app.bin', file: 'app.bin' },
          { path: '/gen.bin', size: 1000, seed: 3, origin: 'second' },
          { path: '/t.txt', text: 'hi', contentType: 'text/plain', etag: 'x1' },
          { path: '/b.bin', base64: Buffer.from('raw').toString('base64'), lastModified: false },
        ],
        redirects: [{ path: '/latest', target: '{secondUrl}/gen.bin' }],
        hub: [
          {
            owner: 'o',
            repo: 'r',
            releases: [{ tag: 'v1', assets: [{ name: 'app.bin', url: '{url}/dl/app.bin' }] }],
          },
        ],
        lab: [{ project: 'g/p', releases: [{ tag: 'v2', assets: [] }] }],
        gitea: {
          flavor: 'forgejo',
          repos: [{ owner: 'o', repo: 'r', releases: [{ tag: 'v3', assets: [] }] }],
        },
        faults: [{ path: '/broken', status: 500 }],
      }),
    );
    cli = startCli(['--fixture', join(dir, 'fixture.json'), '--json']);
    const { child, lines } = cli;
    const first = await lines.next();
    const info = JSON.parse(String(first.value)) as { url: string; secondUrl: string; proxyPrefix: string };
    assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await raw(`${info.url}/dl/app.bin`)).body.toString(), 'file asset');
    assert.equal((await raw(`${info.secondUrl}/gen.bin`)).body.length, 1000);
    const t = await raw(`${info.url}/t.txt`);
    assert.equal(t.body.toString(), 'hi');
    assert.equal(t.headers.etag, '"x1"');
    assert.equal(t.headers['content-type'], 'text/plain');
    const b = await raw(`${info.url}/b.bin`);
    assert.equal(b.body.toString(), 'raw');
    assert.equal(b.headers['last-modified'], undefined);
    assert.equal((await raw(`${info.url}/latest`)).headers.location, `${info.secondUrl}/gen.bin`);
    const hub = await json(`${info.url}/repos/o/r/releases/latest`);
    assert.equal(
      (hub.body as { assets: { browser_download_url: string }[] }).assets[0]?.browser_download_url,
      `${info.url}/dl/app.bin`,
    );
    assert.equal((await raw(`${info.url}/api/v4/projects/g%2Fp/releases/permalink/latest`)).status, 302);
    assert.equal((await json(`${info.url}/api/v1/repos/o/r/releases/latest`)).status, 200);
    assert.equal((await raw(`${info.url}/broken`)).status, 500);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
  } finally {
    cli?.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
});

void test('the CLI rejects an invalid fixture with exit code 2', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ak-'));
  try {
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ assets: [{ path: '/x' }], unknownKey: 1 }));
    const { child, stderr } = startCli(['--fixture', join(dir, 'bad.json')]);
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 2);
    assert.match(stderr(), /unknownKey|exactly one of/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
