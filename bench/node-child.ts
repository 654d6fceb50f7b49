/** Runs a Node child (the CLI) asynchronously, since the sim answering it lives in this process. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** Runs `node ...args` with `env`; resolves with its output, rejects when it exits non-zero. */
export async function runNodeChild(args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string }> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${Buffer.concat(err).toString()}`);
  return { stdout: Buffer.concat(out).toString() };
}
