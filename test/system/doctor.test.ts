import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { resolvePaths } from '../../src/config/paths.js';
import type { Context } from '../../src/context/context.js';
import { runDoctor } from '../../src/system/doctor/run-doctor.js';
import type { CheckStatus, DoctorCheck } from '../../src/system/doctor/types.js';
import { bootId } from '../../src/state/lock.js';
import { nodeLineStatus } from '../../src/core/node-lines.js';
import { countOf } from '../../src/core/plural.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';
import { fakeProgram } from './fake-program.js';
import { createHttpSettings } from '../../src/http/settings.js';

function contextFor(env: NodeJS.ProcessEnv): Context {
  return {
    env,
    paths: resolvePaths(env),
    now: () => new Date(),
    arch: process.arch,
    emit: () => undefined,
    http: createHttpSettings(),
  };
}

function statuses(checks: DoctorCheck[]): Record<string, CheckStatus> {
  return Object.fromEntries(checks.map((c) => [c.id, c.status]));
}

function find(checks: DoctorCheck[], id: string): DoctorCheck {
  const c = checks.find((x) => x.id === id);
  assert.ok(c, `no check ${id}`);
  return c;
}

const ALL_OK_IDS = [
  'config',
  'secrets',
  'recipes',
  'config-dir',
  'storage-dir',
  'foreign-files',
  'state-dir',
  'symlink-dir',
  'desktop-dirs',
  'scripts',
  'symlink-path',
  'desktop-database',
  'state',
  'lock',
  'orphans',
  'installed-files',
  'desktop-entries',
  'foreign-desktop-entries',
  'symlinks',
  'holds',
  'last-run',
  'launch-fixes',
  'schedule',
  'proxy',
];

/** 1 when the Node.js running the tests is on a line past end of life today (doctor's `runtime` warns). */
const RUNTIME_WARNS = nodeLineStatus(process.version, new Date()).pastEndOfLife ? 1 : 0;

/** A healthy setup: a script recipe, one installed app with desktop entry, icon, symlink, previous. */
async function healthy(
  h: TmpHome,
): Promise<{ env: NodeJS.ProcessEnv; file: string; desktop: string; icon: string; link: string }> {
  const storage = join(h.root, 'storage');
  const links = join(h.root, 'links');
  const bin = join(h.root, 'bin');
  await fakeProgram(bin, 'update-desktop-database');
  await symlink('/bin/bash', join(bin, 'bash')).catch(() => symlink('/usr/bin/bash', join(bin, 'bash')));
  await h.writeConfig(
    `storage_dir: ${storage}\nsymlink_dir: ${links}\ncreate_symlinks: true\nmanage_desktop_files: true\n`,
  );
  await writeFile(join(h.configDir, 'secrets.yml'), 'hub_token: abc\n', { mode: 0o600 });
  await h.writeRecipe('app', 'name: app\nstrategy:\n  strategy: script\n  script_path: resolver.sh\n');
  await writeFile(join(h.appsDir, 'app', 'resolver.sh'), 'echo https://127.0.0.1/x\necho 1\n');
  await mkdir(join(storage, '.appimage-keeper-previous'), { recursive: true });
  const file = join(storage, 'app.AppImage');
  const prev = join(storage, '.appimage-keeper-previous', 'app.AppImage');
  await writeFile(file, 'new');
  await writeFile(prev, 'old');
  await mkdir(links, { recursive: true });
  const link = join(links, 'app');
  await symlink(file, link);
  const desktop = join(h.dataHome, 'applications', 'app.desktop');
  const icon = join(h.dataHome, 'icons', 'hicolor', '256x256', 'apps', 'appimage-keeper-app.png');
  await mkdir(join(h.dataHome, 'applications'), { recursive: true });
  await mkdir(join(icon, '..'), { recursive: true });
  await writeFile(
    desktop,
    `[Desktop Entry]\nType=Application\nName=App\nExec=env A=1 ${link} %U\nTryExec=${link}\nX-AppImage-Keeper-App=app\n`,
  );
  await writeFile(icon, 'png');
  const rec = (f: string, v: string) => ({
    version: v,
    identity: v,
    file: f,
    url: 'https://127.0.0.1/x',
    size: 3,
    sha256: '0',
    installedAt: '2026-01-01T00:00:00Z',
  });
  const integration = { desktopId: 'app', desktopFile: desktop, icons: [icon] };
  await mkdir(h.stateDir, { recursive: true });
  await writeFile(
    join(h.stateDir, 'state.json'),
    JSON.stringify({
      schema: 1,
      apps: {
        app: {
          strategy: 'script',
          installed: rec(file, '2'),
          previous: rec(prev, '1'),
          integration,
          symlink: link,
        },
      },
      forgeKinds: {},
      rateLimits: {},
      lastRun: {
        command: 'update',
        startedAt: 'x',
        finishedAt: '2026-01-01T00:00:00Z',
        summary: { updated: 1 },
        updated: ['app'],
        failed: [],
      },
    }),
  );
  return { env: { ...h.env, PATH: `${bin}:${links}` }, file, desktop, icon, link };
}

void describe('doctor', () => {
  const homes: TmpHome[] = [];
  const fresh = async (): Promise<TmpHome> => {
    const h = await makeTmpHome();
    homes.push(h);
    return h;
  };
  after(() => Promise.all(homes.map((h) => h.cleanup())));

  void test('a healthy setup: every check ok, exit 0, --json shape', async () => {
    const { env } = await healthy(await fresh());
    const checks = await runDoctor(contextFor(env), { online: false });
    assert.deepEqual(statuses(checks), Object.fromEntries(ALL_OK_IDS.map((id) => [id, 'ok'])));
    for (const c of checks) assert.equal(typeof c.message, 'string');
    const r = await runInProcess<{ command: string; checks: DoctorCheck[] }>(['--json', 'doctor'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json?.command, 'doctor');
    assert.deepEqual(Object.keys(r.json?.checks[0] ?? {}), ['id', 'status', 'message', 'hint']);
    // The command adds the `runtime` check, which warns on this Node.js line once it is past end of life.
    const runtime = r.json?.checks.find((c) => c.id === 'runtime');
    assert.equal(runtime?.status, RUNTIME_WARNS ? 'warn' : 'ok', runtime?.message);
    assert.ok(
      runtime?.message.startsWith(`Node.js ${process.version} (${process.execPath})`),
      runtime?.message,
    );
    const n = ALL_OK_IDS.length + 1;
    assert.match(
      (await runInProcess(['doctor'], { env })).stdout,
      new RegExp(
        `^${n} checks: ${n - RUNTIME_WARNS} ok, ${countOf(RUNTIME_WARNS, 'warning')}, 0 failed$`,
        'm',
      ),
    );
  });

  void test('one warning is counted as "1 warning"', async () => {
    const h = await fresh();
    const { env } = await healthy(h);
    await writeFile(join(h.configDir, 'secrets.yml'), 'hub_token: x\n');
    await chmod(join(h.configDir, 'secrets.yml'), 0o644);
    const r = await runInProcess(['doctor'], { env });
    const n = ALL_OK_IDS.length + 1;
    const warned = 1 + RUNTIME_WARNS;
    assert.match(
      r.stdout,
      new RegExp(`^${n} checks: ${n - warned} ok, ${countOf(warned, 'warning')}, 0 failed$`, 'm'),
    );
  });

  void test('broken installs: missing files, entries, icons, dangling symlink, orphan, hold, failed run, stale or live lock', async () => {
    const h = await fresh();
    const { env, file, icon, link } = await healthy(h);
    const state = JSON.parse(
      await (await import('node:fs/promises')).readFile(join(h.stateDir, 'state.json'), 'utf8'),
    ) as {
      apps: Record<string, Record<string, unknown>>;
      lastRun: Record<string, unknown>;
    };
    const other = join(h.root, 'storage', 'gone.AppImage');
    state.apps.gone = {
      strategy: 'direct',
      installed: {
        version: '1',
        identity: '1',
        file: other,
        url: 'x',
        size: 1,
        sha256: '0',
        installedAt: 'x',
      },
      hold: true,
    };
    state.lastRun.failed = ['app'];
    await writeFile(join(h.stateDir, 'state.json'), JSON.stringify(state));
    await rm(file);
    await rm(icon);
    await writeFile(
      join(h.stateDir, 'lock'),
      JSON.stringify({ pid: 999_999_999, bootId: await bootId(), command: 'update', startedAt: 'x' }),
    );
    const checks = await runDoctor(contextFor(env), { online: false });
    const s = statuses(checks);
    assert.equal(s['installed-files'], 'fail');
    assert.match(
      find(checks, 'installed-files').message,
      /app: .*app\.AppImage is missing; gone: .*gone\.AppImage is missing/,
    );
    assert.match(find(checks, 'installed-files').hint ?? '', /update app gone --force/);
    assert.equal(s['desktop-entries'], 'fail');
    assert.match(
      find(checks, 'desktop-entries').message,
      new RegExp(`launches ${link}, which is missing.*icon .* is missing`),
    );
    assert.equal(s.symlinks, 'fail');
    assert.match(find(checks, 'symlinks').message, /dangling/);
    assert.equal(s.orphans, 'warn');
    assert.match(find(checks, 'orphans').message, /gone/);
    assert.equal(s.holds, 'warn');
    assert.match(find(checks, 'holds').hint ?? '', /unhold gone/);
    assert.equal(s['last-run'], 'warn');
    assert.equal(s.lock, 'warn');
    assert.match(find(checks, 'lock').message, /stale lock from pid 999999999/);
    const r = await runInProcess(['doctor'], { env });
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^FAIL {2}installed-files/m);
    assert.match(r.stdout, /fix: reinstall with/);

    // A lock held by a live process is a run in progress, not a problem.
    await writeFile(
      join(h.stateDir, 'lock'),
      JSON.stringify({ pid: process.ppid, bootId: await bootId(), command: 'update', startedAt: 'x' }),
    );
    assert.equal(find(await runDoctor(contextFor(env), { online: false }), 'lock').status, 'ok');
    await writeFile(join(h.stateDir, 'lock'), '{"pid":');
    assert.equal(find(await runDoctor(contextFor(env), { online: false }), 'lock').status, 'warn');
    // The missing desktop entry itself.
    await rm(find(checks, 'desktop-entries').message.match(/(\S+\.desktop)/)?.[1] ?? '');
    assert.match(
      find(await runDoctor(contextFor(env), { online: false }), 'desktop-entries').message,
      /desktop entry .* is missing/,
    );
  });

  void test('broken configuration, directories and tools', async () => {
    const b = await fresh();
    {
      const notDir = join(b.root, 'plain-file');
      await writeFile(notDir, 'x');
      const bin = join(b.root, 'bin');
      await mkdir(bin);
      await b.writeConfig(
        `storage_dir: ${notDir}\nsymlink_dir: ${join(notDir, 'sub')}\ncreate_symlinks: true\nhub_token: in-config\n`,
      );
      await writeFile(join(b.configDir, 'secrets.yml'), '# no token here\n');
      await chmod(join(b.configDir, 'secrets.yml'), 0o644);
      await b.writeRecipe('bad', 'name: bad\nstrategy:\n  strategy: forge\n  repositry: x\n');
      await b.writeRecipe('scr', 'name: scr\nstrategy:\n  strategy: script\n  script_path: missing.sh\n');
      await writeFile(join(b.appsDir, 'scr', 'missing.sh'), 'echo\n');
      await mkdir(b.stateDir, { recursive: true });
      await writeFile(join(b.stateDir, 'state.json'), '{"schema": 1, "apps": ');
      await writeFile(join(b.dataHome, 'applications'), 'not a dir');
      const env = { ...b.env, PATH: bin };
      const checks = await runDoctor(contextFor(env), { online: false });
      const s = statuses(checks);
      assert.equal(s.secrets, 'warn');
      assert.match(find(checks, 'secrets').hint ?? '', /chmod 600/);
      assert.equal(s['token-storage'], 'warn');
      assert.equal(s.recipes, 'fail');
      assert.match(
        find(checks, 'recipes').message,
        /1 of 2 recipes invalid: bad: .*bad\.yml:3:3: missing required field "strategy\.repository" \(and more\)/,
      );
      assert.equal(s['storage-dir'], 'fail');
      assert.match(find(checks, 'storage-dir').message, /is not a directory/);
      assert.equal(s['symlink-dir'], 'fail');
      assert.equal(s['desktop-dirs'], 'fail');
      assert.equal(s['symlink-path'], 'fail');
      assert.match(find(checks, 'symlink-path').hint ?? '', /export PATH=/);
      assert.equal(s['desktop-database'], 'warn');
      assert.equal(s.scripts, 'fail');
      assert.match(find(checks, 'scripts').message, /bash is not on PATH/);
      assert.equal(s.state, 'fail');
      assert.match(find(checks, 'state').message, /unreadable/);
      // Read-only: the corrupt state stays where it is.
      await (await import('node:fs/promises')).access(join(b.stateDir, 'state.json'));
      await symlink('/usr/bin/bash', join(bin, 'bash'));
      assert.equal(find(await runDoctor(contextFor(env), { online: false }), 'scripts').status, 'ok');

      // A config dir that is a file breaks config, secrets and the directory itself; state dir too.
      await rm(b.configDir, { recursive: true });
      await writeFile(b.configDir, 'x');
      await rm(b.stateDir, { recursive: true });
      await writeFile(b.stateDir, 'x');
      const broken = await runDoctor(contextFor(env), { online: false });
      const t = statuses(broken);
      assert.equal(t.config, 'fail');
      assert.equal(t.secrets, 'fail');
      assert.equal(t['config-dir'], 'fail');
      assert.equal(t.recipes, 'warn');
      assert.equal(t.orphans, 'warn');
      assert.equal(t['state-dir'], 'fail');
      assert.equal(t.state, 'fail');
      assert.equal(t.lock, 'fail');
      const r = await runInProcess<{ checks: DoctorCheck[] }>(['--json', 'doctor'], { env: b.env });
      assert.equal(r.code, 1);
      assert.equal(r.json?.checks.find((c) => c.id === 'config')?.status, 'fail');
    }
  });

  void test('hints with paths in them run as printed in a shell, whatever the paths hold', async () => {
    const b = await fresh();
    // A folder name a shell would split, expand and run: the hints must name it as one word.
    const odd = join(b.root, "it's my $(touch pwned) `touch pwned` config");
    const configDir = join(odd, 'appimage-keeper');
    const links = join(odd, 'links');
    await mkdir(configDir, { recursive: true });
    await writeFile(
      join(configDir, 'config.yml'),
      `symlink_dir: ${JSON.stringify(links)}\ncreate_symlinks: true\n`,
    );
    await writeFile(join(configDir, 'secrets.yml'), '# nothing\n', { mode: 0o644 });
    await chmod(join(configDir, 'secrets.yml'), 0o644);
    const env = { ...b.env, XDG_CONFIG_HOME: odd, PATH: '/usr/bin:/bin' };
    const sh = (line: string): { code: number | null; out: string } => {
      const r = spawnSync('/bin/sh', ['-c', line], { cwd: b.root, env, encoding: 'utf8' });
      return { code: r.status, out: r.stdout + r.stderr };
    };
    const checks = await runDoctor(contextFor(env), { online: false });
    const chmod600 = /(chmod 600 .*)$/.exec(find(checks, 'secrets').hint ?? '')?.[1];
    assert.ok(chmod600, String(find(checks, 'secrets').hint));
    assert.equal(sh(chmod600).code, 0, chmod600);
    assert.equal((await stat(join(configDir, 'secrets.yml'))).mode & 0o777, 0o600);
    const exportLine = /(export PATH=.*)$/.exec(find(checks, 'symlink-path').hint ?? '')?.[1];
    assert.ok(exportLine, String(find(checks, 'symlink-path').hint));
    const path = sh(`${exportLine}; printf %s "$PATH"`);
    assert.equal(path.out, `${links}:/usr/bin:/bin`, exportLine);

    // The config dir as a plain file: its chmod hint runs on exactly that path.
    await rm(configDir, { recursive: true });
    await writeFile(configDir, 'x', { mode: 0o600 });
    const broken = await runDoctor(contextFor(env), { online: false });
    const chmodDir = /(chmod u\+rx .*)$/.exec(find(broken, 'config-dir').hint ?? '')?.[1];
    assert.ok(chmodDir, String(find(broken, 'config-dir').hint));
    assert.equal(sh(chmodDir).code, 0, chmodDir);
    assert.equal((await stat(configDir)).mode & 0o500, 0o500);
    assert.deepEqual(
      (await readdir(b.root)).filter((f) => f === 'pwned'),
      [],
      'a hint ran part of a path as a command',
    );
  });
});

void describe('doctor --online', () => {
  let h: TmpHome;
  let server: Server;
  let base: string;
  const seen: (string | undefined)[] = [];
  before(async () => {
    h = await makeTmpHome();
    server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      if (req.url !== '/api/rate_limit') {
        res.writeHead(404).end();
        return;
      }
      const auth = req.headers.authorization;
      if (auth === 'Bearer bad') {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Bad credentials"}');
        return;
      }
      const core =
        auth === 'Bearer good'
          ? { limit: 5000, remaining: 4990, reset: 2_000_000_000 }
          : { limit: 60, remaining: 0, reset: 2_000_000_000 };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ resources: { core }, rate: core }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    await h.writeConfig(`hub_release_api_url: ${base}\n`);
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await h.cleanup();
  });

  const online = async (env: NodeJS.ProcessEnv) =>
    statuses(
      (await runDoctor(contextFor(env), { online: true })).filter((c) =>
        ['api', 'token', 'rate-limit'].includes(c.id),
      ),
    );

  void test('valid token with budget left; rejected token; no token with the budget exhausted; unreachable API', async () => {
    assert.deepEqual(await online({ ...h.env, HUB_TOKEN: 'good' }), {
      api: 'ok',
      token: 'ok',
      'rate-limit': 'ok',
    });
    assert.equal(seen.at(-1), 'Bearer good');
    const good = await runDoctor(contextFor({ ...h.env, HUB_TOKEN: 'good' }), { online: true });
    assert.match(
      find(good, 'rate-limit').message,
      /^4990 of 5000 requests left, resets at 2033-05-18 03:33 UTC$/,
    );
    assert.match(find(good, 'token').message, /env:HUB_TOKEN/);

    assert.deepEqual(await online({ ...h.env, HUB_TOKEN: 'bad' }), { api: 'ok', token: 'fail' });
    const none = await runDoctor(contextFor(h.env), { online: true });
    assert.equal(seen.at(-1), undefined);
    assert.deepEqual(statuses(none.filter((c) => ['api', 'token', 'rate-limit'].includes(c.id))), {
      api: 'ok',
      token: 'ok',
      'rate-limit': 'warn',
    });
    assert.match(find(none, 'rate-limit').message, /exhausted/);

    const r = await runInProcess<{ online: boolean; checks: DoctorCheck[] }>(
      ['--json', 'doctor', '--online'],
      {
        env: { ...h.env, HUB_TOKEN: 'bad' },
      },
    );
    assert.equal(r.json?.online, true);
    assert.equal(r.json?.checks.find((c) => c.id === 'token')?.status, 'fail');

    await h.writeConfig(`hub_release_api_url: http://127.0.0.1:1/api\n`);
    const down = await runDoctor(contextFor(h.env), { online: true });
    assert.equal(find(down, 'api').status, 'fail');
    assert.match(find(down, 'api').message, /cannot reach http:\/\/127\.0\.0\.1:1\/api/);
  });
});
