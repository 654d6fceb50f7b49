/** Pieces the delta benchmarks share: a bundled client, a byte-counting relay, timing. */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Bundles `source` (TypeScript, imports relative to the repository root) with esbuild exactly
 * like the shipped CLI, so timings include a realistic process start instead of tsx compiling
 * TypeScript on the fly.
 */
export async function bundleClient(source: string, outfile: string): Promise<void> {
  await build({
    stdin: {
      contents: source,
      resolveDir: fileURLToPath(new URL('..', import.meta.url)),
      loader: 'ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    logLevel: 'warning',
  });
}

/** A TCP relay to `port` that counts bytes flowing back to the client. */
export async function countingRelay(
  port: number,
): Promise<{ server: Server; port: number; received: () => number }> {
  let received = 0;
  const server = createServer((downstream) => {
    const upstream = connect(port, '127.0.0.1');
    upstream.on('data', (d: Buffer) => (received += d.length));
    downstream.pipe(upstream).pipe(downstream);
    upstream.on('error', () => downstream.destroy());
    downstream.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  return { server, port: typeof addr === 'object' && addr ? addr.port : 0, received: () => received };
}

/** Hex digest (`sha1`, `sha256`) of a file, streamed. */
export async function hashFile(path: string, algorithm = 'sha1'): Promise<string> {
  const h = createHash(algorithm);
  for await (const chunk of createReadStream(path, { highWaterMark: 4 << 20 })) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** Runs a command under /usr/bin/time; returns wall seconds and peak RSS in KiB. */
export async function timed(
  cmd: string,
  args: string[],
  cwd: string,
): Promise<{ wall: number; rssKiB: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '@@TIME %e %M', cmd, ...args], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const m = /@@TIME ([\d.]+) (\d+)/.exec(stderr);
      if (code !== 0 || !m) reject(new Error(`${cmd} failed (${code}): ${stderr}`));
      else resolve({ wall: Number(m[1]), rssKiB: Number(m[2]), stdout });
    });
  });
}
