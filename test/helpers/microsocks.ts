/**
 * A real SOCKS5 server for the tests: Debian's microsocks on a free loopback port, optionally with
 * user/password authentication. Its output (one line per connection it made for a client) is kept
 * so tests can see which targets the proxy reached.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, waitForPort } from './local-port.js';

/** A running microsocks. */
export interface Microsocks {
  port: number;
  /** `127.0.0.1:<port>`, to put after `socks5h://[user:password@]`. */
  hostPort: string;
  /** `host:port` of each target the server connected to for a client, in order. */
  targets(): string[];
  /** Everything the server printed. */
  output(): string;
  stop(): Promise<void>;
}

/** Options of `startMicrosocks`. */
export interface MicrosocksOptions {
  auth?: { user: string; password: string };
  /** Run the server through this command prefix (e.g. `unshare -m …`); default none. */
  wrap?: (command: string, args: string[]) => [string, string[]];
}

/** Starts microsocks and waits until it accepts connections. */
export async function startMicrosocks(opts: MicrosocksOptions = {}): Promise<Microsocks> {
  const port = await freePort();
  const args = ['-i', '127.0.0.1', '-p', String(port)];
  if (opts.auth) args.push('-u', opts.auth.user, '-P', opts.auth.password);
  const [cmd, argv] = (opts.wrap ?? ((c, a) => [c, a]))('microsocks', args);
  const child: ChildProcess = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPort(port, child, 'microsocks', () => out);
  return {
    port,
    hostPort: `127.0.0.1:${port}`,
    // microsocks prints "client[<fd>] <peer>: connected to <host>:<port>" for each target it reached.
    targets: () => [...out.matchAll(/: connected to (\S+)/g)].map((m) => m[1] ?? ''),
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
