import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { httpSettingsFor } from '../../src/http/proxy-settings.js';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { resolvePaths } from '../../src/config/paths.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeeperError } from '../../src/core/errors.js';
import { resolveApp } from '../../src/sources/resolve.js';
import { makeContext, makeDeps, makeSettings } from './support.js';

void describe('script strategy', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ak-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function run(
    body: string,
    opts: {
      timeout?: number;
      installed?: string;
      env?: NodeJS.ProcessEnv;
      signal?: AbortSignal;
      envToken?: boolean;
    } = {},
  ) {
    const path = join(dir, `s-${Math.random().toString(36).slice(2)}.sh`);
    await writeFile(path, body);
    const settings = makeSettings(
      { strategy: 'script', script_path: path, timeout: opts.timeout, script_env_token: opts.envToken },
      { name: 'scripted', recipeDir: dir },
    );
    return resolveApp(settings, {
      ...makeDeps(makeContext(opts.env, 'arm64')),
      installedVersion: opts.installed,
      signal: opts.signal,
    });
  }

  // The kill is immediate; reaping by init may lag a moment, so poll instead of asserting at once.
  async function stillAlive(pid: number): Promise<boolean> {
    for (let i = 0; i < 50; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        return false;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return true;
  }

  async function failure(promise: Promise<unknown>): Promise<KeeperError> {
    try {
      await promise;
    } catch (err) {
      assert.ok(err instanceof KeeperError, String(err));
      return err;
    }
    assert.fail('expected a KeeperError');
  }

  void test('two lines give URL and version; env and cwd are passed', async () => {
    await writeFile(join(dir, 'marker.txt'), 'here');
    const outcome = await run(
      [
        'test -f marker.txt || exit 9',
        'echo "https://example.invalid/$APP_NAME-$APP_ARCH.AppImage"',
        'echo "$APP_VERSION+$EXTRA"',
      ].join('\n'),
      { installed: '1.0', env: { EXTRA: 'parent' } },
    );
    assert.equal(outcome.kind, 'resolved');
    if (outcome.kind !== 'resolved') return;
    assert.equal(outcome.resolution.url, 'https://example.invalid/scripted-aarch64.AppImage');
    assert.equal(outcome.resolution.version, '1.0+parent');
    assert.equal(outcome.resolution.assetName, 'scripted-aarch64.AppImage');
    assert.equal(outcome.resolution.identity, 'https://example.invalid/scripted-aarch64.AppImage|1.0+parent');
  });

  void test("the script sees the run's effective proxy: config.yml over the environment", async () => {
    const ctx = makeContext({ https_proxy: 'http://env-proxy:1', no_proxy: 'env.example' }, 'arm64');
    ctx.http = httpSettingsFor(ctx.env, { https_proxy: 'http://cfg-proxy:3128' });
    const path = join(dir, 'proxy.sh');
    await writeFile(path, 'echo https://example.invalid/a\necho "$https_proxy|$HTTPS_PROXY|$no_proxy"');
    const settings = makeSettings(
      { strategy: 'script', script_path: path },
      { name: 'scripted', recipeDir: dir },
    );
    const outcome = await resolveApp(settings, makeDeps(ctx));
    assert.equal(
      outcome.kind === 'resolved' && outcome.resolution.version,
      'http://cfg-proxy:3128|http://cfg-proxy:3128|env.example',
    );
  });

  void test('APP_VERSION is empty when nothing is installed', async () => {
    const outcome = await run('echo https://example.invalid/a\necho "v=[$APP_VERSION]"');
    assert.equal(outcome.kind === 'resolved' && outcome.resolution.version, 'v=[]');
  });

  void test('a slow script is killed: SCRIPT_TIMEOUT, its children too', async () => {
    const pidFile = join(dir, 'child.pid');
    const err = await failure(run(`sleep 30 &\necho $! > ${pidFile}\nsleep 30\necho late`, { timeout: 1 }));
    assert.equal(err.code, 'SCRIPT_TIMEOUT');
    const child = Number(await readFile(pidFile, 'utf8'));
    assert.ok(child > 0);
    assert.equal(await stillAlive(child), false, 'the background child was killed with the script');
  });

  void test('an interrupted run stops the script and its children: SCRIPT_ABORTED', async () => {
    const pidFile = join(dir, 'abort-child.pid');
    const controller = new AbortController();
    const pending = failure(
      run(`sleep 30 &\necho $! > ${pidFile}\nsleep 30\necho late`, {
        timeout: 60,
        signal: controller.signal,
      }),
    );
    // Abort once the script has started its child, as Ctrl-C would.
    for (let i = 0; i < 100; i++) {
      const text = await readFile(pidFile, 'utf8').catch(() => '');
      if (text.trim()) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    controller.abort();
    const err = await pending;
    assert.equal(err.code, 'SCRIPT_ABORTED');
    const child = Number(await readFile(pidFile, 'utf8'));
    assert.equal(await stillAlive(child), false, 'the background child was killed with the script');
  });

  void test('a window left from an earlier URL of the app (a forge recipe turned script) does not stop the script', async () => {
    const marker = join(dir, 'ran.txt');
    const path = join(dir, 'window.sh');
    await writeFile(path, `touch ${marker}\necho https://x.invalid/a\necho 1`);
    const deps = makeDeps();
    const until = new Date(Date.now() + 3_600_000).toISOString();
    deps.store.setRateLimit('app:windowed', {
      until,
      message: 'limited earlier',
      url: 'https://api.example/repos/o/r/releases/latest',
      host: 'api.example',
    });
    const settings = makeSettings(
      { strategy: 'script', script_path: path },
      { name: 'windowed', recipeDir: dir },
    );
    const outcome = await resolveApp(settings, deps);
    assert.equal(outcome.kind, 'resolved');
    await readFile(marker);
  });

  void test('a non-zero exit is SCRIPT_EXIT with the code and the end of stderr', async () => {
    const err = await failure(run('echo "first problem" >&2\necho "upstream is down" >&2\nexit 3'));
    assert.equal(err.code, 'SCRIPT_EXIT');
    assert.match(err.message, /code 3/);
    assert.match(err.message, /upstream is down/);
  });

  void test('one line of output is SCRIPT_OUTPUT', async () => {
    const err = await failure(run('echo https://example.invalid/a.AppImage'));
    assert.equal(err.code, 'SCRIPT_OUTPUT');
    assert.match(err.message, /1 line instead of 2/);
  });

  void test('lines after the first two are ignored and counted for -v (as fp-appimage-updater reads them)', async () => {
    const ctx = makeContext({}, 'x64');
    const path = join(dir, 'three.sh');
    await writeFile(path, 'echo https://x.invalid/a\necho 1.0\necho extra\necho more');
    const settings = makeSettings(
      { strategy: 'script', script_path: path },
      { name: 'three', recipeDir: dir },
    );
    const r = await resolveApp(settings, makeDeps(ctx));
    assert.ok(r.kind === 'resolved');
    assert.deepEqual([r.resolution.url, r.resolution.version], ['https://x.invalid/a', '1.0']);
    assert.ok(
      ctx.events.some(
        (e) =>
          e.type === 'info' &&
          e.app === 'three' &&
          /printed 2 more lines after the URL and the version/.test(e.message),
      ),
    );
  });

  void test('one line, an empty line, and a non-URL first line are rejected', async () => {
    assert.equal((await failure(run('echo https://x.invalid/a'))).code, 'SCRIPT_OUTPUT');
    assert.match((await failure(run('echo https://x.invalid/a\necho'))).message, /empty second line/);
    const notUrl = await failure(run('echo not-a-url\necho 1.0'));
    assert.match(notUrl.message, /not a URL/);
    const ftp = await failure(run('echo ftp://x.invalid/a\necho 1.0'));
    assert.match(ftp.message, /only http and https/);
  });

  void test('a missing script is SCRIPT_NOT_FOUND', async () => {
    const settings = makeSettings(
      { strategy: 'script', script_path: join(dir, 'nope.sh') },
      { recipeDir: dir },
    );
    assert.equal((await failure(resolveApp(settings, makeDeps()))).code, 'SCRIPT_NOT_FOUND');
  });

  void test('runaway output is capped and reported', async () => {
    const err = await failure(run('head -c 200000 /dev/zero | tr "\\0" a\necho\necho 1'));
    assert.equal(err.code, 'SCRIPT_OUTPUT');
    assert.match(err.message, /more than/);
  });

  void test('--system: a script in a folder others can write is refused before root runs it', async () => {
    const shared = join(dir, 'shared-bin');
    await mkdir(shared);
    await chmod(shared, 0o777);
    const script = join(shared, 'resolver.sh');
    const marker = join(dir, 'ran-as-root');
    await writeFile(script, `touch ${marker}\necho https://example.invalid/a.AppImage\necho 1\n`);
    const settings = makeSettings(
      { strategy: 'script', script_path: script },
      { name: 'scripted', recipeDir: dir },
    );
    const ctx = makeContext();
    ctx.paths = resolvePaths({ HOME: '/tmp/ak-unused-home' }, undefined, 'system');
    const err = await failure(resolveApp(settings, makeDeps(ctx)));
    assert.equal(err.code, 'SYSTEM_CONFIG_UNSAFE');
    assert.ok(err.hint?.includes(`chmod go-w ${shared}`), err.hint);
    await assert.rejects(readFile(marker), 'the script never ran');
    // The same script in the per-user layout is the user's own and runs.
    const mine = await resolveApp(settings, makeDeps(makeContext()));
    assert.equal(mine.kind, 'resolved');
    assert.equal(await readFile(marker, 'utf8'), '');
  });

  void test('token variables reach the script only with script_env_token: true', async () => {
    const env = { HUB_TOKEN: 'hub-secret', GITHUB_TOKEN: 'gh-secret', GH_TOKEN: 'cli-secret', KEEP: 'k' };
    const body = 'echo https://x.invalid/a\necho "[${HUB_TOKEN-}|${GITHUB_TOKEN-}|${GH_TOKEN-}|$KEEP]"';
    const hidden = await run(body, { env });
    assert.equal(hidden.kind === 'resolved' && hidden.resolution.version, '[|||k]');
    const passed = await run(body, { env, envToken: true });
    assert.equal(
      passed.kind === 'resolved' && passed.resolution.version,
      '[hub-secret|gh-secret|cli-secret|k]',
    );
  });

  // The audit's case: a detached child (setsid) holding stdout kept the run going for its whole
  // life and the app was reported SCRIPT_TIMEOUT although the script had finished.
  void test('a detached child holding stdout does not hold the run once the script exits', async () => {
    const pidFile = join(dir, 'setsid.pid');
    try {
      const outcome = await run(
        `setsid sleep 60 &\necho $! > ${pidFile}\necho https://x.invalid/a.AppImage\necho 2.0`,
        { timeout: 20 },
      );
      assert.equal(outcome.kind, 'resolved');
      assert.equal(outcome.kind === 'resolved' && outcome.resolution.version, '2.0');
    } finally {
      await killPidFrom(pidFile);
    }
  });

  void test('at the timeout the whole group dies, and a detached child is not waited for', async () => {
    const groupPid = join(dir, 'group-child.pid');
    const detachedPid = join(dir, 'detached-child.pid');
    try {
      const err = await failure(
        run(
          `sleep 60 &\necho $! > ${groupPid}\nsetsid sleep 60 &\necho $! > ${detachedPid}\necho partial\nsleep 60`,
          { timeout: 1 },
        ),
      );
      assert.equal(err.code, 'SCRIPT_TIMEOUT');
      const child = Number(await readFile(groupPid, 'utf8'));
      assert.equal(await stillAlive(child), false, "the child in the script's group was killed");
    } finally {
      await killPidFrom(detachedPid);
    }
  });

  async function killPidFrom(file: string): Promise<void> {
    const pid = Number(await readFile(file, 'utf8').catch(() => ''));
    if (pid > 0) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
});
