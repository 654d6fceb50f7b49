// `npm run sim` as a user runs it: publish a release while it runs (admin endpoint + `sim publish`),
// `doctor --online` against its /rate_limit, `update`/`check` through the built CLI, and a clean
// stop when npm gets Ctrl-C (SIGINT to the whole process group) or SIGTERM.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, test } from 'node:test';
import { disposeFixtureAppImages, fixtureAppImage } from '../helpers/fixture-appimages.js';
import { REPO_ROOT, runCli } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

interface SimInfo {
  url: string;
  hubApiUrl: string;
  adminUrl: string;
}

function npmRunSim(): { child: ChildProcess; info: Promise<SimInfo>; exited: Promise<number | null> } {
  // detached: its own process group, so the test can send Ctrl-C to the group as a terminal does.
  const child = spawn('npm', ['run', '--silent', 'sim', '--', '--json'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const info = lines.next().then((l) => JSON.parse(String(l.value)) as SimInfo);
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, info, exited };
}

function simPublish(adminUrl: string, args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(REPO_ROOT, 'sim', 'cli.ts'), 'publish', '--admin', adminUrl, ...args],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  return once(child, 'exit').then(([code]) => ({ code: code as number | null, out }));
}

/** True when nothing listens on `url` any more. */
function refused(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', timeout: 2000 }, (res) => {
      res.resume();
      resolve(false);
    });
    req.on('error', () => resolve(true));
    req.end();
  });
}

/** Waits up to 10 s for `url` to refuse connections: npm may exit just before the sim has closed. */
async function closed(url: string): Promise<void> {
  const until = Date.now() + 10_000;
  while (!(await refused(url))) {
    assert.ok(Date.now() < until, `${url} still answers: the sim outlived npm`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), ms)),
  );
  try {
    return await Promise.race([p, t]);
  } finally {
    clearTimeout(timer);
  }
}

void describe('npm run sim', () => {
  const homes: TmpHome[] = [];
  const children: ChildProcess[] = [];
  after(async () => {
    for (const c of children) {
      try {
        if (c.pid) process.kill(-c.pid, 'SIGKILL');
      } catch {
        // the group is gone already: the test stopped it
      }
    }
    await Promise.all(homes.map((h) => h.cleanup()));
    await disposeFixtureAppImages();
  });

  void test('publish while it runs, doctor --online, update and check; Ctrl-C stops it', async () => {
    const sim = npmRunSim();
    children.push(sim.child);
    const info = await withTimeout(sim.info, 30_000, 'npm run sim printing its URLs');
    assert.match(info.adminUrl, /^http:\/\/127\.0\.0\.1:\d+$/);

    const home = await makeTmpHome();
    homes.push(home);
    const storage = join(home.root, 'storage');
    await home.writeConfig(
      [
        `storage_dir: ${storage}`,
        `symlink_dir: ${join(home.root, 'bin')}`,
        `hub_release_api_url: ${info.hubApiUrl}`,
        `hub_release_web_url: ${info.url}`,
        'hub_proxy: false',
        'manage_desktop_files: false',
        '',
      ].join('\n'),
    );
    await home.writeRecipe(
      'hello',
      `name: hello\nstrategy:\n  strategy: forge\n  repository: ${info.url}/demo/hello\n  asset_match: "hello-*"\n`,
    );
    const env = { ...home.env, APPIMAGE_KEEPER_PROXY_BUILTINS: '' };

    const v1 = join(home.root, 'hello-1.0.0-x86_64.AppImage');
    await writeFile(v1, await fixtureAppImage('hello', '1.0.0'));
    const pub1 = await simPublish(info.adminUrl, ['--repo', 'demo/hello', '--tag', 'v1.0.0', v1]);
    assert.equal(pub1.code, 0, pub1.out);
    assert.match(pub1.out, /"tag":"v1\.0\.0"/);
    const first = await runCli<{ apps: { to_version: string }[] }>(['--json', 'update'], { env });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.equal(first.json?.apps[0]?.to_version, 'v1.0.0');

    const v2 = join(home.root, 'hello-1.1.0-x86_64.AppImage');
    await writeFile(v2, await fixtureAppImage('hello', '1.1.0'));
    const pub2 = await simPublish(info.adminUrl, ['--repo', 'demo/hello', '--tag', 'v1.1.0', v2]);
    assert.equal(pub2.code, 0, pub2.out);
    const check = await runCli(['check', '--exit-code'], { env });
    assert.equal(check.code, 10, check.stdout + check.stderr);
    assert.match(check.stdout, /hello v1\.0\.0 → v1\.1\.0/);

    const doctor = await runCli<{ checks: { id: string; status: string; message: string }[] }>(
      ['--json', 'doctor', '--online'],
      { env },
    );
    const checks = doctor.json?.checks ?? [];
    const byId = (id: string) => checks.find((c) => c.id.startsWith(id));
    assert.equal(byId('api')?.status, 'ok', doctor.stdout);
    assert.equal(byId('rate-limit')?.status, 'ok', doctor.stdout);
    assert.match(byId('rate-limit')?.message ?? '', /60/);

    const bad = await simPublish(info.adminUrl, ['--repo', 'no-slash', '--tag', 'v1', v2]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.out, /HTTP 400/);

    process.kill(-sim.child.pid!, 'SIGINT');
    const code = await withTimeout(sim.exited, 15_000, 'npm run sim stopping on Ctrl-C');
    assert.ok(code === 0 || code === 130, `npm exited ${code}`);
    await closed(info.url);
    assert.equal(await refused(info.adminUrl), true, 'the admin port is closed');
  });

  void test('SIGTERM to npm alone stops the sim behind it', async () => {
    const sim = npmRunSim();
    children.push(sim.child);
    const info = await withTimeout(sim.info, 30_000, 'npm run sim printing its URLs');
    sim.child.kill('SIGTERM');
    await withTimeout(sim.exited, 15_000, 'npm run sim stopping on SIGTERM');
    await closed(info.url);
    assert.equal(await refused(info.adminUrl), true, 'the admin port is closed');
  });
});
