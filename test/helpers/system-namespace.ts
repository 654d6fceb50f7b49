/**
 * Runs steps as root inside a private mount namespace whose system folders (/etc/appimage-keeper,
 * /var/lib/…, /var/cache/…, /opt/appimages, /usr/local/bin, /usr/local/share, /etc/systemd/system)
 * are fresh tmpfs mounts: `--system` (or a playbook) writes there for real and the machine itself is
 * untouched. The network is shared, so a sim started by the test on 127.0.0.1 is the forge.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { shellQuote } from '../../src/core/shell-quote.js';
import { CLI_PATH } from './run-cli.js';

/** The folders mounted over with an empty tmpfs (mode 0755, root's) in the namespace. */
export const SYSTEM_MOUNTS = [
  '/etc/appimage-keeper',
  '/var/lib/appimage-keeper',
  '/var/cache/appimage-keeper',
  '/opt/appimages',
  '/usr/local/bin',
  '/usr/local/share',
  '/etc/systemd/system',
] as const;

/** The uid/gid `asNobody` steps run as. */
export const NOBODY = 65534;

/** One step: a program and its arguments, or a shell snippet; as root unless `asNobody`. */
export type NamespaceStep = { argv: string[]; asNobody?: boolean } | { shell: string; asNobody?: boolean };

/** What one step printed and how it ended. */
export interface StepResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Undefined when this process may make a private mount namespace and mount tmpfs in it (root
 * with CAP_SYS_ADMIN, unshare and setpriv present); else the reason, for a one-line skip.
 */
export async function namespaceUnavailable(): Promise<string | undefined> {
  if (process.geteuid?.() !== 0) return 'not root';
  const probe = await runSh([
    'unshare',
    '-m',
    '--propagation',
    'private',
    'sh',
    '-c',
    'mount -t tmpfs tmpfs /mnt',
  ]);
  if (probe.code !== 0) return `unshare/mount not permitted: ${probe.stderr.trim()}`;
  const setpriv = await runSh(['setpriv', '--version']);
  return setpriv.code === 0 ? undefined : 'setpriv not found';
}

function runSh(argv: string[], timeoutMs = 10_000): Promise<StepResult> {
  return new Promise((resolve) => {
    const [cmd = 'false', ...args] = argv;
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => err.push(Buffer.from(e.message)));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

/** Options of `runInSystemNamespace`. */
export interface NamespaceOptions {
  /** Environment of every step (also of the nobody steps); PATH must reach node and the tools. */
  env: NodeJS.ProcessEnv;
  /** umask of the steps (default 077: the strictest an administrator may have). */
  umask?: string;
  timeoutMs?: number;
}

/**
 * Runs `steps` in order in one namespace (they share its tmpfs folders, which vanish with it) and
 * returns each step's output. A step's failure does not stop the next: the caller asserts. Mount
 * points missing on this machine are created first and removed afterwards when still empty.
 */
export async function runInSystemNamespace(
  steps: NamespaceStep[],
  opts: NamespaceOptions,
): Promise<StepResult[]> {
  const created: string[] = [];
  for (const dir of SYSTEM_MOUNTS) {
    if (await stat(dir).catch(() => undefined)) continue;
    await mkdir(dir, { recursive: true });
    created.push(dir);
  }
  // Outside every mount, so the root shell can collect what the steps print.
  const work = await mkdtemp(join(tmpdir(), 'ak-ns-'));
  try {
    // A node under /usr/local/bin would vanish under the tmpfs: bind it to a path that stays.
    const hidden = SYSTEM_MOUNTS.some((d) => process.execPath.startsWith(`${d}/`));
    const node = hidden ? join(work, 'node') : process.execPath;
    if (hidden) {
      await writeFile(node, '');
      await chmod(work, 0o755);
    }
    // nobody cannot reach a checkout in a private folder (mkdtemp's 0700, many homes): its steps run
    // a copy of the built CLI from this world-readable folder, and so do root's, to run the same bytes.
    const cliCopy = join(work, 'cli', 'appimage-keeper.cjs');
    await cp(dirname(CLI_PATH), dirname(cliCopy), { recursive: true });
    await chmod(work, 0o755);
    const argvOf = (argv: string[]): string[] =>
      argv.map((a) => (a === process.execPath ? node : a === CLI_PATH ? cliCopy : a));
    const lines = [
      'set -u',
      ...(hidden ? [`mount --bind ${shellQuote(process.execPath)} ${shellQuote(node)} || exit 97`] : []),
      ...SYSTEM_MOUNTS.map((d) => `mount -t tmpfs -o mode=0755 tmpfs ${shellQuote(d)} || exit 97`),
      `umask ${opts.umask ?? '077'}`,
      ...steps.map((step, i) => {
        const command =
          'argv' in step
            ? argvOf(step.argv).map(shellQuote).join(' ')
            : `sh -c ${shellQuote(step.shell.replaceAll(CLI_PATH, cliCopy))}`;
        const as = step.asNobody ? `setpriv --reuid=${NOBODY} --regid=${NOBODY} --clear-groups ` : '';
        const out = join(work, String(i));
        return `${as}${command} >${out}.out 2>${out}.err; echo $? >${out}.code`;
      }),
    ];
    await writeFile(join(work, 'run.sh'), `${lines.join('\n')}\n`);
    const run = await new Promise<StepResult>((resolve, reject) => {
      const child = spawn('unshare', ['-m', '--propagation', 'private', 'sh', join(work, 'run.sh')], {
        env: opts.env,
        cwd: '/',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const err: Buffer[] = [];
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.stdout.resume();
      const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code: code ?? -1, stdout: '', stderr: Buffer.concat(err).toString('utf8') });
      });
    });
    if (run.code === 97) throw new Error(`mounting the tmpfs folders failed: ${run.stderr}`);
    return await Promise.all(
      steps.map(async (_, i) => {
        const read = (ext: string): Promise<string> =>
          readFile(join(work, `${i}.${ext}`), 'utf8').catch(() => '');
        const code = Number((await read('code')).trim() || '-1');
        return { code, stdout: await read('out'), stderr: await read('err') };
      }),
    );
  } finally {
    await rm(work, { recursive: true, force: true });
    for (const dir of created.reverse()) await rmdir(dir).catch(() => undefined);
  }
}

/** The one JSON document a `--json` step printed (the assertion names the step's output if not). */
export function stepJson<T>(r: StepResult | undefined): T {
  assert.ok(r, 'step ran');
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    assert.fail(`not one JSON document (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
}

/** `doctor --json`'s checks. */
export interface DoctorJson {
  checks: { id: string; status: string; message: string; hint: string | null }[];
}
