/**
 * A real forward proxy for the tests: Debian's tinyproxy on a free loopback port with a
 * temporary config (optionally `BasicAuth`), its log readable so tests can see which requests
 * and tunnels the proxy carried.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from './local-port.js';

/** A running tinyproxy. */
export interface Tinyproxy {
  port: number;
  /** The proxy's process (for benchmarks that count its CPU time). */
  pid: number | undefined;
  /** `http://127.0.0.1:<port>` (without credentials). */
  url: string;
  /** The proxy's log so far. */
  log(): Promise<string>;
  /** `CONNECT host:port` tunnels and absolute-form requests the proxy received. */
  requests(): Promise<{ connects: string[]; gets: string[]; connections: number }>;
  stop(): Promise<void>;
}

/** Options of `startTinyproxy`. */
export interface TinyproxyOptions {
  auth?: { user: string; password: string };
  /** More config lines (e.g. `ConnectPort 443`, which refuses CONNECT to other ports with 403). */
  extraConfig?: string[];
  /** Run the proxy through this command prefix (e.g. `unshare -m …`); default none. */
  wrap?: (command: string, args: string[]) => [string, string[]];
}

/** Starts tinyproxy in the foreground and waits until it accepts connections. */
export async function startTinyproxy(opts: TinyproxyOptions = {}): Promise<Tinyproxy> {
  const dir = await mkdtemp(join(tmpdir(), 'keeper-tinyproxy-'));
  // tinyproxy started as root drops to nobody, which must still write its log.
  await chmod(dir, 0o777);
  const port = await freePort();
  const logFile = join(dir, 'tinyproxy.log');
  const conf = join(dir, 'tinyproxy.conf');
  await writeFile(
    conf,
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 60',
      'Allow 127.0.0.1',
      `LogFile "${logFile}"`,
      'LogLevel Info',
      `PidFile "${join(dir, 'tinyproxy.pid')}"`,
      'MaxClients 400',
      ...(opts.auth ? [`BasicAuth ${opts.auth.user} ${opts.auth.password}`] : []),
      ...(opts.extraConfig ?? []),
      '',
    ].join('\n'),
  );
  const [cmd, args] = (opts.wrap ?? ((c, a) => [c, a]))('tinyproxy', ['-d', '-c', conf]);
  const child: ChildProcess = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPort(port, child, 'tinyproxy', () => stderr);
  const log = (): Promise<string> => readFile(logFile, 'utf8').catch(() => '');
  return {
    port,
    pid: child.pid,
    url: `http://127.0.0.1:${port}`,
    log,
    requests: async () => {
      const text = await log();
      const lines = [...text.matchAll(/Request \(file descriptor \d+\): (\S+) (\S+) HTTP/g)];
      return {
        connects: lines.filter((m) => m[1] === 'CONNECT').map((m) => m[2] ?? ''),
        gets: lines.filter((m) => m[1] !== 'CONNECT').map((m) => `${m[1]} ${m[2]}`),
        // Client connections the proxy accepted: tunnels, or keep-alive connections for absolute form.
        connections: [...text.matchAll(/Connect \(file descriptor \d+\):/g)].length,
      };
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
