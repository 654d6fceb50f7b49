/** Ports of the loopback servers tests start themselves (tinyproxy, microsocks). */
import type { ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';

/** A loopback port free right now (the kernel's pick, released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Waits up to 5 s until `child` (named `name`) accepts connections on `port`; its output explains a failure. */
export async function waitForPort(
  port: number,
  child: ChildProcess,
  name: string,
  output: () => string,
): Promise<void> {
  const until = Date.now() + 5_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${output()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`${name} did not listen on ${port}: ${output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
