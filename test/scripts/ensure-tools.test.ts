/**
 * The set-up step of `npm test` (scripts/ensure-tools.mjs): with a PATH that lacks the Debian
 * tools, fake `apt-get` and `sudo` that record their arguments, and ENSURE_TOOLS_UID to act as a
 * non-root user, nothing is really installed or removed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT } from '../helpers/run-cli.js';

const SCRIPT = join(REPO_ROOT, 'scripts', 'ensure-tools.mjs');
const ALL = [
  'mksquashfs',
  'unsquashfs',
  'zsyncmake',
  'zsync',
  'desktop-file-validate',
  'zip',
  'gpg',
  'zsh',
  'ansible-playbook',
  'tinyproxy',
  'microsocks',
  'zstd',
];

// apt-get logs its arguments; `install` creates the commands listed in FAKE_INSTALLS, as a real
// install of the requested packages would.
const FAKE_APT = `#!/bin/sh
printf 'apt-get %s\\n' "$*" >> "$FAKE_LOG"
[ -n "$FAKE_APT_STATUS" ] && exit "$FAKE_APT_STATUS"
if [ "$1" = install ]; then
  for c in $FAKE_INSTALLS; do printf '#!/bin/sh\\n' > "$FAKE_BIN/$c"; /bin/chmod +x "$FAKE_BIN/$c"; done
fi
exit 0
`;
// sudo logs its arguments; it allows `-n` only when FAKE_SUDO_OK=1.
const FAKE_SUDO = `#!/bin/sh
printf 'sudo %s\\n' "$*" >> "$FAKE_LOG"
[ "$FAKE_SUDO_OK" = 1 ] || { echo 'sudo: a password is required' >&2; exit 1; }
[ "$1" = -n ] && shift
[ "$1" = true ] && exit 0
exec "$@"
`;

interface Fake {
  dir: string;
  bin: string;
  log: string;
}

async function makeFake(opts: { present: string[]; apt: boolean; sudo: boolean }): Promise<Fake> {
  const dir = await mkdtemp(join(tmpdir(), 'ak-tools-'));
  const bin = join(dir, 'bin');
  await mkdir(bin);
  const put = async (name: string, text: string) => {
    await writeFile(join(bin, name), text);
    await chmod(join(bin, name), 0o755);
  };
  for (const c of opts.present) await put(c, '#!/bin/sh\n');
  if (opts.apt) await put('apt-get', FAKE_APT);
  if (opts.sudo) await put('sudo', FAKE_SUDO);
  return { dir, bin, log: join(dir, 'calls.log') };
}

function runScript(fake: Fake, env: Record<string, string>) {
  return spawnSync(process.execPath, [SCRIPT], {
    env: { PATH: fake.bin, FAKE_LOG: fake.log, FAKE_BIN: fake.bin, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

async function calls(fake: Fake): Promise<string[]> {
  const text = await readFile(fake.log, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean);
}

void describe('ensure-tools', () => {
  const fakes: Fake[] = [];
  const fake = async (opts: { present: string[]; apt: boolean; sudo: boolean }) => {
    const f = await makeFake(opts);
    fakes.push(f);
    return f;
  };
  after(async () => {
    await Promise.all(fakes.map((f) => rm(f.dir, { recursive: true, force: true })));
  });

  void it('does nothing when every tool is on PATH', async () => {
    const f = await fake({ present: ALL, apt: true, sudo: true });
    const r = runScript(f, { ENSURE_TOOLS_UID: '0' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.deepEqual(await calls(f), []);
  });

  void it('as root, installs the missing packages with apt-get update then apt-get install -y', async () => {
    const f = await fake({
      present: [
        'zsyncmake',
        'zsync',
        'desktop-file-validate',
        'zsh',
        'ansible-playbook',
        'tinyproxy',
        'microsocks',
        'zstd',
      ],
      apt: true,
      sudo: false,
    });
    const r = runScript(f, {
      ENSURE_TOOLS_UID: '0',
      FAKE_INSTALLS: 'mksquashfs unsquashfs zip gpg',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(await calls(f), ['apt-get update', 'apt-get install -y squashfs-tools zip gnupg']);
    assert.match(r.stderr, /installing squashfs-tools zip gnupg/);
    assert.equal(r.stdout, '');
  });

  void it('as a user whose sudo -n works, installs through sudo -n', async () => {
    const f = await fake({ present: ALL.filter((c) => c !== 'zip'), apt: true, sudo: true });
    const r = runScript(f, {
      ENSURE_TOOLS_UID: '1000',
      FAKE_SUDO_OK: '1',
      FAKE_INSTALLS: 'zip',
    });
    assert.equal(r.status, 0, r.stderr);
    const aptGet = join(f.bin, 'apt-get');
    assert.deepEqual(await calls(f), [
      'sudo -n true',
      `sudo -n ${aptGet} update`,
      'apt-get update',
      `sudo -n ${aptGet} install -y zip`,
      'apt-get install -y zip',
    ]);
  });

  void it('as a user without sudo rights, stops with one line naming the tools and the command', async () => {
    const f = await fake({ present: ['gpg', 'zip'], apt: true, sudo: true });
    const r = runScript(f, { ENSURE_TOOLS_UID: '1000' });
    assert.equal(r.status, 1);
    assert.deepEqual(await calls(f), ['sudo -n true'], 'apt-get must not run');
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('ensure-tools:'));
    assert.equal(lines.length, 1, r.stderr);
    const line = lines[0] ?? '';
    for (const c of ['mksquashfs', 'unsquashfs', 'zsyncmake', 'zsync', 'desktop-file-validate'])
      assert.ok(line.includes(c), `${c} named in: ${line}`);
    assert.ok(!/\bgpg\b/.test(line), 'gpg is present and not named');
    assert.ok(
      line.includes('sudo apt-get update && sudo apt-get install -y squashfs-tools zsync desktop-file-utils'),
      line,
    );
  });

  void it('as a user with no sudo at all, gives the same instruction', async () => {
    const f = await fake({ present: ALL.filter((c) => c !== 'gpg'), apt: true, sudo: false });
    const r = runScript(f, { ENSURE_TOOLS_UID: '1000' });
    assert.equal(r.status, 1);
    assert.deepEqual(await calls(f), []);
    assert.match(r.stderr, /gpg \(gnupg\), which is missing.*sudo apt-get install -y gnupg/);
  });

  void it('without apt-get, names the tools and the Debian command', async () => {
    const f = await fake({ present: [], apt: false, sudo: false });
    const r = runScript(f, { ENSURE_TOOLS_UID: '0' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /apt-get is not on PATH; install them with: apt-get update && apt-get install -y/);
  });

  void it('fails when apt-get fails, and when the tools are still missing afterwards', async () => {
    const f = await fake({ present: ALL.filter((c) => c !== 'zip'), apt: true, sudo: false });
    const broken = runScript(f, { ENSURE_TOOLS_UID: '0', FAKE_APT_STATUS: '100' });
    assert.equal(broken.status, 1);
    assert.match(broken.stderr, /installing the test tools failed \(.*apt-get update exited with 100\)/);
    assert.deepEqual(await calls(f), ['apt-get update'], 'install is not tried after a failed update');

    const g = await fake({ present: ALL.filter((c) => c !== 'zip'), apt: true, sudo: false });
    const useless = runScript(g, { ENSURE_TOOLS_UID: '0' });
    assert.equal(useless.status, 1);
    assert.match(useless.stderr, /after apt-get install, zip \(zip\) still not on PATH/);
  });
});

void describe('npm test', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ak-npmtest-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  void it('stops before lint or any test when the tools are missing and cannot be installed', async () => {
    // Only node, npm and sh (npm runs scripts through it) on PATH: no Debian tools, apt-get or sudo.
    const npm = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
    await symlink(process.execPath, join(dir, 'node'));
    await symlink(npm, join(dir, 'npm'));
    await symlink('/bin/sh', join(dir, 'sh'));
    const r = spawnSync(join(dir, 'npm'), ['test'], {
      cwd: REPO_ROOT,
      env: { PATH: dir, HOME: dir, ENSURE_TOOLS_UID: '1000', npm_config_update_notifier: 'false' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /ensure-tools: the tests need mksquashfs/);
    assert.doesNotMatch(r.stdout + r.stderr, /eslint|prettier|# tests|ℹ tests/);
  });
});
