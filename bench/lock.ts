/**
 * The lock file's two benchmarks (issue 22), measured side by side in one run:
 *
 * (a) `update --locked` with every app already at its locked digest: N apps (real AppImages
 *     built with mksquashfs) are installed from the sim and locked, then `update --locked` runs
 *     `--rounds` times, interleaved with a bare `node -e 0` and `--version` for scale. Target:
 *     0 requests, at most 0.3 s wall.
 * (b) `lock` for M apps beside `check` for the same M apps (distinct hub repositories): the
 *     requests of a first run and of a second run with nothing changed, conditional ones and 304s
 *     counted. Target: `lock` sends what `check` sends (one conditional request per repository).
 *
 *   npm run build && npx tsx bench/lock.ts [--apps 50] [--many 200] [--rounds 7] [--cli FILE] [--profile DIR] [--smoke]
 *
 * `--cli` measures another build (a copy of an older dist/appimage-keeper.cjs, for a before/after);
 * `--profile DIR` writes a V8 CPU profile of one extra `update --locked` run. Wall and CPU times
 * come from bench/time-run.ts; the children get the temp home's environment only, so an inherited
 * NODE_EXTRA_CA_CERTS (about 40 ms per node start) does not count.
 */
import { startSim, type Sim } from '../sim/index.js';
import { recordResponses } from '../test/e2e/check/helpers.js';
import { disposeFixtureAppImages } from '../test/helpers/fixture-appimages.js';
import { publishHubRelease } from '../test/helpers/hub-release.js';
import { CLI_PATH } from '../test/helpers/run-cli.js';
import { makeSimWorld, type SimWorld } from '../test/helpers/sim-world.js';
import { median, numberArg } from './cli-args.js';
import { runNodeChild } from './node-child.js';
import { timeRun } from './time-run.js';
import { lockedWorld } from './worlds.js';

const apps = numberArg('apps', 50, 2);
const many = numberArg('many', 200, 3);
const rounds = numberArg('rounds', 7, 1);
const cliAt = process.argv.indexOf('--cli');
const cli = cliAt >= 0 ? (process.argv[cliAt + 1] ?? CLI_PATH) : CLI_PATH;
const profAt = process.argv.indexOf('--profile');
const profileDir = profAt >= 0 ? process.argv[profAt + 1] : undefined;

const names = (prefix: string, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);

/** Runs the CLI asynchronously (the sim answering it lives in this process); throws on failure. */
async function cliRun(world: SimWorld, args: string[], node: string[] = []): Promise<string> {
  return (await runNodeChild([...node, cli, ...args], world.env)).stdout;
}

interface Traffic {
  requests: number;
  conditional: number;
  notModified: number;
  wallMs: number;
}

/** One async CLI run and what the sim saw of it. */
async function traffic(
  sim: Sim,
  rec: ReturnType<typeof recordResponses>,
  world: SimWorld,
  args: string[],
): Promise<Traffic> {
  sim.clearRequests();
  rec.responses.length = 0;
  const t0 = performance.now();
  await cliRun(world, args);
  const wallMs = performance.now() - t0;
  return {
    requests: sim.requests.length,
    conditional: sim.requests.filter(
      (q) => q.headers['if-none-match'] !== undefined || q.headers['if-modified-since'] !== undefined,
    ).length,
    notModified: rec.responses.filter((x) => x.status === 304).length,
    wallMs,
  };
}

const sim = await startSim();
const rec = recordResponses();
const worlds: SimWorld[] = [];
const world = async (): Promise<SimWorld> => {
  const w = await makeSimWorld(sim);
  worlds.push(w);
  return w;
};
try {
  // (a) N installed, locked apps.
  const locked = await lockedWorld(sim, apps, cli);
  worlds.push(locked);
  const noop = await traffic(sim, rec, locked, ['--json', 'update', '--locked']);
  const outcome = JSON.parse(await cliRun(locked, ['--json', 'update', '--locked'])) as {
    summary: { up_to_date: number };
  };
  // A request would hang the synchronous timed runs below (the sim could not answer it).
  if (noop.requests !== 0) throw new Error(`update --locked at the lock sent ${noop.requests} requests`);
  if (profileDir)
    await cliRun(locked, ['update', '--locked'], ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);

  type Sample = ReturnType<typeof timeRun>;
  const cases: { label: string; argv: string[] }[] = [
    { label: 'node -e 0 (bare)', argv: [process.execPath, '-e', '0'] },
    { label: '--version', argv: [process.execPath, cli, '--version'] },
    {
      label: `update --locked (${apps} apps at the lock)`,
      argv: [process.execPath, cli, 'update', '--locked'],
    },
  ];
  const samples = new Map<string, Sample[]>(cases.map((c) => [c.label, []]));
  // Interleaved rounds, so a busy moment on the machine hits every case alike. These runs send no
  // request (checked above), so the synchronous spawn that blocks the sim blocks nothing.
  for (let r = 0; r < rounds; r++)
    for (const c of cases) samples.get(c.label)?.push(timeRun(c.argv, locked.env));
  const med = (label: string, key: keyof Sample): number =>
    median((samples.get(label) ?? []).map((s) => s[key]));

  // (b) M hub recipes whose releases publish a digest (so `lock` needs no download), in two homes.
  const manyNames = names('bk', many);
  for (const name of manyNames)
    publishHubRelease(sim, name, '1.0.0', Buffer.from(`${name} 1.0.0`), {
      assetName: `${name}-x86_64.AppImage`,
    });
  const checkHome = await world();
  const lockHome = await world();
  for (const name of manyNames) {
    await checkHome.writeForgeRecipe(name);
    await lockHome.writeForgeRecipe(name);
  }
  const checkRuns = [
    await traffic(sim, rec, checkHome, ['--json', 'check']),
    await traffic(sim, rec, checkHome, ['--json', 'check']),
  ];
  const lockRuns = [
    await traffic(sim, rec, lockHome, ['--json', 'lock']),
    await traffic(sim, rec, lockHome, ['--json', 'lock']),
  ];

  const s = (n: number): string => n.toFixed(3);
  const bareWall = med('node -e 0 (bare)', 'wall');
  console.log(
    `\nbench/lock: (a) ${apps} apps at their locked digest, median of ${rounds} interleaved rounds; ` +
      `(b) ${many} hub repositories (node ${process.version})\n`,
  );
  console.log('| (a) command | CPU (s) | wall (s) | x bare wall | requests | target | met |');
  console.log('| --- | ---: | ---: | ---: | ---: | --- | --- |');
  for (const c of cases) {
    const wall = med(c.label, 'wall');
    const isLocked = c.label.startsWith('update');
    const met = noop.requests === 0 && wall <= 0.3 && outcome.summary.up_to_date === apps;
    console.log(
      `| ${c.label} | ${s(med(c.label, 'cpu'))} | ${s(wall)} | ${(wall / bareWall).toFixed(2)} | ` +
        `${isLocked ? noop.requests : '-'} | ${isLocked ? '0 requests, wall <= 0.3 s' : '-'} | ${isLocked ? (met ? 'yes' : 'no') : ''} |`,
    );
  }
  console.log(`\n| (b) run (${many} repositories) | requests | conditional | 304 | wall (s) |`);
  console.log('| --- | ---: | ---: | ---: | ---: |');
  const rows: [string, Traffic][] = [
    ['check, first run', checkRuns[0] as Traffic],
    ['check, nothing changed', checkRuns[1] as Traffic],
    ['lock, first run', lockRuns[0] as Traffic],
    ['lock, nothing changed', lockRuns[1] as Traffic],
  ];
  for (const [label, t] of rows)
    console.log(`| ${label} | ${t.requests} | ${t.conditional} | ${t.notModified} | ${s(t.wallMs / 1000)} |`);
  const same =
    rows[0]?.[1].requests === rows[2]?.[1].requests && rows[1]?.[1].requests === rows[3]?.[1].requests;
  const second = lockRuns[1] as Traffic;
  console.log(
    `\nlock sends what check sends: ${same ? 'yes' : 'NO'}; lock with nothing changed is one conditional ` +
      `request per repository, all 304: ${second.requests === many && second.conditional === many && second.notModified === many ? 'yes' : 'NO'}`,
  );
} finally {
  rec.restore();
  await sim.stop();
  await Promise.all(worlds.map((w) => w.home.cleanup()));
  await disposeFixtureAppImages();
}
