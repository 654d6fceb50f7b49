/**
 * Every benchmark in bench/ in its smoke mode (`--smoke`: tiny sizes, one round, loopback servers
 * it starts itself), run as a child process the way a person runs it: it must exit 0 and print its
 * table. A change that breaks a benchmark then fails here, not the next time someone measures.
 * No timing is asserted.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CLI_PATH, REPO_ROOT } from '../helpers/run-cli.js';

/** A benchmark: a line of the table it prints, and what its table must not say. */
interface Bench {
  table: RegExp;
  /** A verdict of the benchmark's own checks that means the code under test went wrong. */
  wrong?: RegExp;
}

const BENCHES: Record<string, Bench> = {
  // Without ../shared/corpus the bench says so and measures nothing.
  'arch-corpus.ts': { table: /^names: \d+; with an architecture: \d+|^bench\/arch-corpus: .* is absent/m },
  'catalogue.ts': { table: /^\| first search \(fetch both, fill the cache\) \| [\d.]+ ms \|/m },
  'check.ts': { table: /^\| 2 \(nothing changed\) \| [\d.]+ s \| \d+ \|/m },
  'delta.ts': { table: /^\| block map \(ours, embedded\) \| [\d.]+ \|/m },
  'download.ts': { table: /^\| unthrottled \| ours, segmented x4 \| [\d.]+ \|/m, wrong: /\| NO \|/ },
  'hostile-memory.ts': { table: /^\| baseline: block map update \| updated \(blockmap\) \| \d+ \|/m },
  'integrate.ts': { table: /^\| appimage-keeper integrateDesktop .*\| [\d.]+ ms \|/m },
  'lock.ts': { table: /^\| update --locked \(\d+ apps at the lock\) \| [\d.]+ \|/m },
  // Without network namespaces (a container that forbids them) the bench says so and stops.
  'offline.ts': { table: /^offline update, \d+ apps, no network: median \d+ ms|^offline bench skipped: /m },
  'soak.ts': { table: /^\| \*\*all\*\* \| 1 \| \d+ \|/m },
  'standalone.ts': { table: /^\| standalone `--version` \(no node on PATH\) \| [\d.]+ MiB \| \d+ ms \|/m },
  'startup.ts': { table: /^\| --version \| [\d.]+ \|/m },
  'trust.ts': { table: /^\| update, provenance: require \| \d+ ms \|/m },
  'trust-signature.ts': { table: /^\| Ed25519, text, SHA-256 +\| [\d.-]+ \/ [\d.-]+ /m },
  'zsync.ts': { table: /^\| appimage-keeper zsyncDownload \| \d+ \|/m },
};

/** Modules of bench/ that the benchmarks import; they measure nothing themselves. */
const HELPERS = [
  'cli-args.ts',
  'node-child.ts',
  'support.ts',
  'time-run.ts',
  'transfer-client.ts',
  'worlds.ts',
];

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

void test('every file in bench/ is a benchmark run here or a helper module', () => {
  const files = readdirSync(join(REPO_ROOT, 'bench')).filter((f) => f.endsWith('.ts'));
  assert.deepEqual(files.sort(), [...Object.keys(BENCHES), ...HELPERS].sort());
});

// Two at a time: most of a benchmark's time is process starts and waiting for its children.
void describe('benchmarks in smoke mode', { concurrency: 2 }, () => {
  for (const [file, bench] of Object.entries(BENCHES)) {
    void test(`bench/${file} --smoke exits 0 and prints its table`, async () => {
      assert.ok(existsSync(CLI_PATH), `${CLI_PATH} is missing: the benchmarks run the built CLI`);
      const r = await runBench(file);
      assert.equal(r.code, 0, `bench/${file} exited ${r.code}:\n${r.stderr.slice(-3000)}`);
      assert.match(r.stdout, bench.table, `bench/${file} printed no table:\n${r.stdout}`);
      if (bench.wrong) assert.doesNotMatch(r.stdout, bench.wrong, `bench/${file}:\n${r.stdout}`);
    });
  }
});
