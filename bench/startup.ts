/**
 * Start-up cost of the built CLI beside a bare `node -e 0`, measured side by side in one run:
 * `--version`, `completion bash`; `list` and `validate` over 200 and over 1,000 recipes, warm (the
 * validated cache filled by an earlier run, as every run after the first finds it) and cold (the
 * cache and Node's compile cache removed before each run); `list` over 200 with one app installed;
 * `search` over 5,000 cached catalogue entries; `update --locked` with 50 apps at the lock. CPU
 * (user + system) and wall time of each run come from bench/time-run.ts. The children get the temp
 * home's environment only, so an inherited NODE_EXTRA_CA_CERTS (about 40 ms per node start) does
 * not count.
 *
 *   npm run build && npx tsx bench/startup.ts [--rounds 7] [--recipes 200] [--many 1000] [--entries 5000] [--apps 50] [--cli FILE] [--smoke]
 *
 * `--cli` measures another build (a copy of an older dist/appimage-keeper.cjs, for a before/after).
 *
 * Prints two markdown tables with medians: each command against bare node (targets: `--version`
 * and `completion` at most 1.3x bare node's CPU time; warm `list` and `validate` over 200 recipes
 * at most 3x bare node's wall time; `search` at most 100 ms and `update --locked` at most 0.3 s of
 * wall time), and the cost of each extra recipe from 200 to 1,000, warm (target: at most 0.1 ms).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSim } from '../sim/index.js';
import { resolvePaths } from '../src/config/paths.js';
import { VALIDATED_CACHE_FILE } from '../src/config/validated-cache.js';
import { compileCacheDir } from '../src/entry/compile-cache.js';
import { disposeFixtureAppImages } from '../test/helpers/fixture-appimages.js';
import { CLI_PATH } from '../test/helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../test/helpers/tmp-home.js';
import { median, numberArg } from './cli-args.js';
import { runNodeChild } from './node-child.js';
import { timeRun } from './time-run.js';
import { catalogueHome, lockedWorld } from './worlds.js';

const rounds = numberArg('rounds', 7, 1);
const recipes = numberArg('recipes', 200, 3);
const many = numberArg('many', 1000, 6);
const entries = numberArg('entries', 5000, 20);
const apps = numberArg('apps', 50, 2);
const cliAt = process.argv.indexOf('--cli');
const cli = cliAt >= 0 ? (process.argv[cliAt + 1] ?? CLI_PATH) : CLI_PATH;

type Sample = ReturnType<typeof timeRun>;

/** A fresh home with `count` valid forge recipes. */
async function homeWith(count: number): Promise<TmpHome> {
  const home = await makeTmpHome();
  for (let i = 0; i < count; i++) {
    const name = `app${String(i).padStart(4, '0')}`;
    await home.writeRecipe(
      name,
      `name: ${name}\nstrategy:\n  strategy: forge\n  repository: https://github.com/example/${name}\n  asset_match: "${name}-*.AppImage"\n`,
    );
  }
  return home;
}

interface Case {
  label: string;
  args: string[];
  home: TmpHome | { env: NodeJS.ProcessEnv };
  /** Runs before each timed run (not timed): a cold case removes the caches. */
  before?: () => Promise<void>;
}

/** Removes the validated cache and Node's compile cache of `home`. */
async function coldCaches(home: TmpHome): Promise<void> {
  await rm(join(resolvePaths(home.env, undefined, 'user').cacheDir, VALIDATED_CACHE_FILE), { force: true });
  await rm(compileCacheDir(home.env), { recursive: true, force: true });
}

/** `home` with state.json naming its first app as installed (its file present), written by the tool as a user's is. */
async function withInstalledApp(home: TmpHome): Promise<TmpHome> {
  const file = join(home.root, 'app0000.AppImage');
  await writeFile(file, 'x');
  await mkdir(home.stateDir, { recursive: true });
  const installed = {
    version: '1.0',
    identity: 'v1.0|app0000',
    file,
    url: 'https://example.org/a',
    size: 1,
    sha256: '0',
    installedAt: '2026-01-01T00:00:00Z',
  };
  await writeFile(
    join(home.stateDir, 'state.json'),
    JSON.stringify({
      schema: 1,
      apps: { app0000: { strategy: 'forge', installed, hold: true } },
      forgeKinds: {},
      rateLimits: {},
    }),
  );
  // `unhold` saves state.json as the tool writes it (with its digest), like a user's state.
  timeRun([process.execPath, cli, 'unhold', 'app0000'], home.env);
  return home;
}

const sim = await startSim();
const few = await homeWith(recipes);
const lots = await homeWith(many);
const cold = await homeWith(recipes);
const used = await withInstalledApp(await homeWith(recipes));
const catalogue = await makeTmpHome();
const homes = [few, lots, cold, used, catalogue];
try {
  await catalogueHome(sim, catalogue, entries);
  // The first search fetches both catalogues (async: the sim answers in this process); later ones
  // read them from the cache and send nothing, so the synchronous timed runs block nothing.
  await runNodeChild([cli, 'search', 'editor'], catalogue.env);
  const locked = await lockedWorld(sim, apps, cli);
  homes.push(locked.home);
  const cases: Case[] = [
    { label: 'node -e 0 (bare)', args: ['-e', '0'], home: few },
    { label: '--version', args: [cli, '--version'], home: few },
    { label: 'completion bash', args: [cli, 'completion', 'bash'], home: few },
    ...(['list', 'validate'] as const).flatMap((cmd) => [
      { label: `${cmd} (${recipes} recipes)`, args: [cli, cmd], home: few },
      { label: `${cmd} (${many} recipes)`, args: [cli, cmd], home: lots },
      {
        label: `${cmd} (${recipes} recipes, cold)`,
        args: [cli, cmd],
        home: cold,
        before: () => coldCaches(cold),
      },
    ]),
    // Not a target: the same 200 recipes with one app installed (state.json read and checked).
    { label: `list (${recipes} recipes, 1 installed)`, args: [cli, 'list'], home: used },
    {
      label: `search (${entries} cached entries)`,
      args: [cli, 'search', 'editor', 'people'],
      home: catalogue,
    },
    {
      label: `update --locked (${apps} apps at the lock)`,
      args: [cli, 'update', '--locked'],
      home: locked.home,
    },
  ];
  // Warm: one run of each fills the validated cache (and state.json's digest, the compile cache).
  for (const c of cases) timeRun([process.execPath, ...c.args], { ...c.home.env, NO_COLOR: '1' });
  const samples = new Map<string, Sample[]>(cases.map((c) => [c.label, []]));
  // Interleaved rounds, so a busy moment on the machine hits every case alike. `validate` exits 0
  // only when every recipe is valid, which these are.
  for (let r = 0; r < rounds; r++) {
    for (const c of cases) {
      await c.before?.();
      samples.get(c.label)?.push(timeRun([process.execPath, ...c.args], { ...c.home.env, NO_COLOR: '1' }));
    }
  }
  const med = (label: string, key: keyof Sample): number =>
    median((samples.get(label) ?? []).map((s) => s[key]));
  const bareCpu = med('node -e 0 (bare)', 'cpu');
  const bareWall = med('node -e 0 (bare)', 'wall');
  const target = (label: string): { text: string; met: boolean } | undefined => {
    if (label.startsWith('node')) return undefined;
    if (label.startsWith('--version') || label.startsWith('completion')) {
      const cpu = med(label, 'cpu');
      return { text: 'CPU <= 1.3x bare', met: cpu <= 1.3 * bareCpu };
    }
    if (label.endsWith(`(${recipes} recipes)`))
      return { text: 'wall <= 3x bare', met: med(label, 'wall') <= 3 * bareWall };
    if (label.startsWith('search')) return { text: 'wall <= 0.1 s', met: med(label, 'wall') <= 0.1 };
    if (label.startsWith('update')) return { text: 'wall <= 0.3 s', met: med(label, 'wall') <= 0.3 };
    return undefined;
  };
  const load = (await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(
    `\nStart-up, median of ${rounds} interleaved rounds (node ${process.version}, load average ${load})\n`,
  );
  console.log('| command | CPU (s) | x bare CPU | wall (s) | x bare wall | target | met |');
  console.log('| --- | ---: | ---: | ---: | ---: | --- | --- |');
  for (const c of cases) {
    const cpu = med(c.label, 'cpu');
    const wall = med(c.label, 'wall');
    const t = target(c.label);
    console.log(
      `| ${c.label} | ${cpu.toFixed(3)} | ${(cpu / bareCpu).toFixed(2)} | ${wall.toFixed(3)} | ${(wall / bareWall).toFixed(2)} | ${t?.text ?? '-'} | ${t ? (t.met ? 'yes' : 'no') : ''} |`,
    );
  }
  console.log(`\nCost of each recipe from ${recipes} to ${many}, warm (wall; target <= 0.1 ms)\n`);
  console.log(`| command | wall ${recipes} (s) | wall ${many} (s) | ms per recipe | met |`);
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (const cmd of ['list', 'validate']) {
    const a = med(`${cmd} (${recipes} recipes)`, 'wall');
    const b = med(`${cmd} (${many} recipes)`, 'wall');
    const perRecipe = ((b - a) / (many - recipes)) * 1000;
    console.log(
      `| ${cmd} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${perRecipe.toFixed(3)} | ${perRecipe <= 0.1 ? 'yes' : 'no'} |`,
    );
  }
} finally {
  await sim.stop();
  for (const h of homes) await h.cleanup();
  await disposeFixtureAppImages();
}
