/**
 * Peak memory of the built CLI fed hostile JSON (issue 18 §2): an `update` run under
 * `/usr/bin/time` against the simulator, once per case, with the maximum resident set size it
 * reports. The cases are the audit's: a block map tail of ~48 KiB that inflates to 48 MiB of `[`
 * (on the new file, and on the installed one), and 32 attestation bundles, each 4 MiB of nested
 * JSON served Snappy-packed through `bundle_url`. A plain update of the same files is the baseline.
 * Then every catalogue path (issue 27 §4, test/helpers/catalogue-memory.ts): `search` fetching and
 * parsing, then reading back from the cache, an AM list, an AM line, a keeper index and an
 * AppImageHub feed, each just under the 32 MiB cap.
 *
 *   npx tsx bench/hostile-memory.ts [--smoke] [--only update|catalogues]   (`npm run build` first)
 *
 * `--smoke` shrinks every document to a few KiB: the bench's own check, run by the test suite.
 * Target: no hostile case and no catalogue path above 150 MB peak RSS.
 */
import { spawn } from 'node:child_process';
import { deflateRawSync } from 'node:zlib';
import { withBlockMap, withTail } from '../fixtures/blockmap.js';
import { startSim, type Sim } from '../sim/index.js';
import { buildFixtures, disposeFixtures } from '../test/e2e/zsync/harness.js';
import { publishHubRelease } from '../test/helpers/hub-release.js';
import { CLI_PATH } from '../test/helpers/run-cli.js';
import {
  CATALOGUE_MEMORY_LIMIT_MB,
  measureCatalogueMemory,
  NEAR_CAP_BYTES,
  type MemoryRow,
} from '../test/helpers/catalogue-memory.js';
import { sha256 } from '../test/helpers/sha256.js';
import { makeSimWorld, type SimWorld } from '../test/helpers/sim-world.js';

const TARGET_MB = 150;
const smoke = process.argv.includes('--smoke');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
/** As much `[` as the tail's old 48 MiB inflate cap let through: ~48 KiB once deflated. */
const NESTED_TAIL = deflateRawSync(Buffer.alloc(smoke ? 64 * 1024 : 48 * 1024 * 1024 - 1, '['), { level: 9 });
/** One hostile bundle: 4 MiB of `[`, the most a bundle may decompress to. */
const NESTED_BUNDLE = Buffer.alloc(smoke ? 4096 : 4 * 1024 * 1024, '[');
const BUNDLES = smoke ? 2 : 32;

interface Row {
  case: string;
  outcome: string;
  rssMb: number;
  wallS: number;
}

/** Runs `update <app>` of `world` under /usr/bin/time; the app's status and code, RSS and time. */
async function measure(world: SimWorld, app: string): Promise<Omit<Row, 'case'>> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      '/usr/bin/time',
      ['-f', '@@TIME %e %M', process.execPath, CLI_PATH, '--json', 'update', app],
      { env: world.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const m = /@@TIME ([\d.]+) (\d+)/.exec(stderr);
      if (!m) return reject(new Error(`no /usr/bin/time report: ${stderr.slice(-2000)}`));
      resolve({ outcome: outcomeOf(stdout, app), rssMb: Number(m[2]) / 1024, wallS: Number(m[1]) });
    });
  });
}

/** `updated (blockmap)`, `failed PROVENANCE_INVALID`, …: what the run did to the app. */
function outcomeOf(stdout: string, app: string): string {
  try {
    const doc = JSON.parse(stdout) as {
      apps: { name: string; status: string; method?: string; error?: { code: string } }[];
    };
    const o = doc.apps.find((a) => a.name === app);
    if (!o) return 'no entry';
    return [o.status, o.method ? `(${o.method})` : '', o.error?.code ?? ''].filter(Boolean).join(' ');
  } catch {
    return 'no JSON output';
  }
}

/** A world with `v1` of `app` installed by a plain update, and `v2` published. */
async function installed(
  sim: Sim,
  app: string,
  v1: Buffer,
  v2: Buffer,
  extra: string[] = [],
): Promise<SimWorld> {
  const world = await makeSimWorld(sim, { configLines: ['stall_timeout: 5'] });
  await world.writeForgeRecipe(app, { extra: ['provenance: off'] });
  publishHubRelease(sim, app, '1.0.0', v1);
  const first = await world.run(['--json', 'update', app]);
  if (first.code !== 0) throw new Error(`installing ${app} 1.0.0 failed: ${first.stderr}`);
  await world.writeForgeRecipe(app, { extra });
  publishHubRelease(sim, app, '2.0.0', v2);
  return world;
}

const sim = await startSim();
const worlds: SimWorld[] = [];
const rows: Row[] = [];
let catalogueRows: MemoryRow[] = [];
try {
  if (only !== 'update')
    catalogueRows = await measureCatalogueMemory(sim, smoke ? 16 * 1024 : NEAR_CAP_BYTES, (l) =>
      process.stderr.write(`${l}\n`),
    );
  if (only !== 'catalogues') await updateCases();
} finally {
  await Promise.all(worlds.map((w) => w.home.cleanup()));
  await disposeFixtures();
  await sim.stop();
}

async function updateCases(): Promise<void> {
  const fx = await buildFixtures();
  const [v1Mapped, v2Mapped] = await Promise.all([withBlockMap(fx.v1), withBlockMap(fx.v2Small)]);
  const cases: [string, () => Promise<SimWorld>, string][] = [
    ['baseline: block map update', () => installed(sim, 'hm-base', v1Mapped, v2Mapped), 'hm-base'],
    [
      `nested tail on the new file (${NESTED_TAIL.length} B deflated)`,
      () => installed(sim, 'hm-new', v1Mapped, withTail(fx.v2Small, NESTED_TAIL)),
      'hm-new',
    ],
    [
      `nested tail on the installed file (${NESTED_TAIL.length} B deflated)`,
      () => installed(sim, 'hm-old', withTail(fx.v1, NESTED_TAIL), v2Mapped),
      'hm-old',
    ],
    [
      `${BUNDLES} bundle_url bundles of 4 MiB nested JSON`,
      async () => {
        const world = await installed(sim, 'hm-att', fx.v1, fx.v2Small, ['provenance: require']);
        const bundles = Array.from({ length: BUNDLES }, () => NESTED_BUNDLE);
        sim.hub.setAttestations('e2e', 'hm-att', sha256(fx.v2Small), bundles, 'bundle_url');
        return world;
      },
      'hm-att',
    ],
  ];
  for (const [name, setup, app] of cases) {
    process.stderr.write(`${name}…\n`);
    const world = await setup();
    worlds.push(world);
    rows.push({ case: name, ...(await measure(world, app)) });
  }
}

if (rows.length > 0) {
  console.log(`| case | outcome | peak RSS (MB) | wall (s) |`);
  console.log(`| --- | --- | ---: | ---: |`);
  for (const r of rows)
    console.log(`| ${r.case} | ${r.outcome} | ${r.rssMb.toFixed(0)} | ${r.wallS.toFixed(1)} |`);
  const over = rows.filter((r) => !r.case.startsWith('baseline') && r.rssMb > TARGET_MB);
  console.log(
    over.length === 0
      ? `\nevery hostile case under ${TARGET_MB} MB\n`
      : `\n${over.length} over ${TARGET_MB} MB\n`,
  );
}
if (catalogueRows.length > 0) {
  console.log(`| catalogue document | run | size (MiB) | hits | peak RSS (MB) |`);
  console.log(`| --- | --- | ---: | ---: | ---: |`);
  for (const r of catalogueRows)
    console.log(
      `| ${r.case} | ${r.run} | ${(r.bytes / 1048576).toFixed(2)} | ${r.hits} | ${r.rssMb.toFixed(0)} |`,
    );
  const over = catalogueRows.filter((r) => r.rssMb > CATALOGUE_MEMORY_LIMIT_MB);
  console.log(
    over.length === 0
      ? `\nevery catalogue path under ${CATALOGUE_MEMORY_LIMIT_MB} MB`
      : `\n${over.length} catalogue runs over ${CATALOGUE_MEMORY_LIMIT_MB} MB`,
  );
}
