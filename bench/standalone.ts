/**
 * The standalone executable beside the npm bundle: file size and start-up cost of `--version`
 * (wall and CPU time, median of N runs), with bare `node -e 0` as the floor.
 *
 *   npm run build && npx tsx bench/standalone.ts [--runs 20] [--smoke]
 *
 * Builds the executable into a temp dir first (also timed), then times each command with
 * bench/time-run.ts. Prints a markdown table.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildStandalone } from '../scripts/build-standalone.js';
import { CLI_PATH } from '../test/helpers/run-cli.js';
import { median, numberArg } from './cli-args.js';
import { timeRun } from './time-run.js';

const runs = numberArg('runs', 20, 1);

function measure(argv: string[], env: NodeJS.ProcessEnv): { wall: number; cpu: number } {
  const samples = Array.from({ length: runs }, () => timeRun(argv, env));
  return { wall: median(samples.map((x) => x.wall)), cpu: median(samples.map((x) => x.cpu)) };
}

/** The npm bundle's code: the launcher and every chunk (source maps left out). */
async function bundleBytes(): Promise<number> {
  const chunks = join(dirname(CLI_PATH), 'chunks');
  const files = [
    CLI_PATH,
    ...(await readdir(chunks)).filter((f) => f.endsWith('.mjs')).map((f) => join(chunks, f)),
  ];
  const sizes = await Promise.all(files.map(async (f) => (await stat(f)).size));
  return sizes.reduce((a, b) => a + b, 0);
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const ms = (s: number) => `${(s * 1000).toFixed(0)} ms`;

const dir = await mkdtemp(join(tmpdir(), 'ak-bench-standalone-'));
try {
  const t0 = Date.now();
  const built = await buildStandalone(dir);
  const buildSeconds = (Date.now() - t0) / 1000;
  const noNode = { PATH: join(dir, 'nothing'), HOME: dir };
  // The same bare environment for the node rows: variables such as NODE_EXTRA_CA_CERTS (which makes
  // every node start read a CA bundle) would otherwise be measured too.
  const bare = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir };
  const rows: [string, string, { wall: number; cpu: number }][] = [
    ['standalone `--version` (no node on PATH)', mib(built.size), measure([built.file, '--version'], noNode)],
    [
      '`node dist/appimage-keeper.cjs --version`',
      `${mib(await bundleBytes())} + node`,
      measure([process.execPath, CLI_PATH, '--version'], bare),
    ],
    ['`node -e 0`', '—', measure([process.execPath, '-e', '0'], bare)],
  ];
  const strip = built.stripped ? 'stripped' : 'not stripped';
  console.log(`standalone built in ${buildSeconds.toFixed(1)} s (${strip}); median of ${runs} runs\n`);
  console.log('| command | size | wall | CPU |');
  console.log('| --- | --- | --- | --- |');
  for (const [label, size, t] of rows) console.log(`| ${label} | ${size} | ${ms(t.wall)} | ${ms(t.cpu)} |`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
