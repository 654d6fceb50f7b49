/**
 * Every benchmark in bench/ in its smoke mode (`--smoke`: tiny sizes, one round, loopback servers
 * it starts itself), run as a child process the way a person runs it: it must exit 0 and print its
 * table. A change that breaks a benchmark then fails here, not the next time someone measures.
 * No timing is asserted.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI_PATH, REPO_ROOT } from '../helpers/run-cli.js';

/** Each benchmark and a line of the table it prints. */
const BENCHES: Record<string, RegExp> = {
  'delta.ts': /^\| block map \(ours, embedded\) \| [\d.]+ \|/m,
  // Without network namespaces (a container that forbids them) the bench says so and stops.
  'offline.ts': /^offline update, 3 apps, no network: median \d+ ms|^offline bench skipped: /m,
  'zsync.ts': /^\| appimage-keeper zsyncDownload \| \d+ \|/m,
};

/** Runs `bench/<file> --smoke`; its exit code and output. */
async function runBench(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join('bench', file), '--smoke'], {
    cwd: REPO_ROOT,
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
}

for (const [file, table] of Object.entries(BENCHES)) {
  void test(`bench/${file} --smoke exits 0 and prints its table`, async () => {
    assert.ok(existsSync(CLI_PATH), `${CLI_PATH} is missing: the benchmarks run the built CLI`);
    const r = await runBench(file);
    assert.equal(r.code, 0, `bench/${file} exited ${r.code}:\n${r.stderr.slice(-3000)}`);
    assert.match(r.stdout, table, `bench/${file} printed no table:\n${r.stdout}`);
  });
}
