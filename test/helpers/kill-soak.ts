/**
 * The kill soak: `kill -9` of the real built CLI at random points of an update of several apps at
 * once (download, verify, rename, desktop write, state save), each trial followed by a rerun and a
 * convergence run. Used by bench/soak.ts (50 trials, figures in docs/reliability.md) and, bounded,
 * by test/e2e/update/soak.test.ts.
 */
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sim } from '../../sim/index.js';
import { TEMP_PREFIX } from '../../src/core/file-names.js';
import { fixtureAppImage } from './fixture-appimages.js';
import { publishHubRelease } from './hub-release.js';
import { startCli } from './run-cli.js';
import { sha256 } from './sha256.js';
import { makeSimWorld, type SimWorld } from './sim-world.js';
import { partialsDir, tempFiles } from './temp-files.js';
import { seededRandom } from './seeded-random.js';

/** Where a trial aims its kill. */
export const SOAK_PHASES = ['download', 'verify', 'rename', 'desktop', 'state'] as const;
export type SoakPhase = (typeof SOAK_PHASES)[number];

/** Figures of one phase (or of the whole soak). */
export interface SoakFigures {
  trials: number;
  /** Trials whose run was really killed (the others finished before the trigger fired). */
  killed: number;
  /** Files in storage_dir whose bytes are not a published version of their app, after the kill or the rerun. */
  corruptInstalls: number;
  /** Apps whose previous version (the one installed before the trial) is not kept intact after the rerun. */
  lostPrevious: number;
  /** Trials whose rerun failed or whose next run still had work to do or left files behind. */
  notConverged: number;
}

/** The soak's result: overall and per phase, plus what went wrong (empty when all held). */
export interface SoakResult {
  total: SoakFigures;
  byPhase: Record<SoakPhase, SoakFigures>;
  problems: string[];
}

interface AppSpec {
  name: string;
  recipe: string[];
  desktop: boolean;
}

const APPS: AppSpec[] = [
  { name: 'soak-a', recipe: [], desktop: true },
  { name: 'soak-b', recipe: ['naming_format: "{name}-{version}.AppImage"'], desktop: true },
  { name: 'soak-c', recipe: ['manage_desktop_files: false'], desktop: false },
  { name: 'soak-d', recipe: ['manage_desktop_files: false'], desktop: false },
];

interface StateJson {
  apps: Record<
    string,
    {
      installed?: { version: string; file: string; sha256: string };
      previous?: { version: string; file: string; sha256: string };
      integration?: { desktopFile: string };
    }
  >;
}

function empty(): SoakFigures {
  return { trials: 0, killed: 0, corruptInstalls: 0, lostPrevious: 0, notConverged: 0 };
}

/** Runs `trials` kill trials against `sim`; the world is made and removed here. */
export async function runKillSoak(
  sim: Sim,
  opts: { trials: number; seed?: number; log?: (line: string) => void },
): Promise<SoakResult> {
  const random = seededRandom(opts.seed ?? 1);
  const world = await makeSimWorld(sim, { configLines: ['stall_timeout: 5', 'keep_previous: true'] });
  const result: SoakResult = {
    total: empty(),
    byPhase: Object.fromEntries(SOAK_PHASES.map((p) => [p, empty()])) as Record<SoakPhase, SoakFigures>,
    problems: [],
  };
  // Digests of every version published per app: any other bytes under a final name are corruption.
  const known = new Map<string, Set<string>>();
  let version = 0;
  const publishAll = async (): Promise<void> => {
    version++;
    for (const app of APPS) {
      const body = await fixtureAppImage(app.name, `${version}.0`);
      publishHubRelease(sim, app.name, `${version}.0`, body);
      const set = known.get(app.name) ?? new Set<string>();
      set.add(sha256(body));
      known.set(app.name, set);
    }
  };
  try {
    for (const app of APPS) await world.writeForgeRecipe(app.name, { extra: app.recipe });
    // Two clean rounds, so every app has an installed and a kept previous version to lose.
    for (let i = 0; i < 2; i++) {
      await publishAll();
      const r = await world.run(['--json', 'update']);
      if (r.code !== 0) throw new Error(`soak setup failed: ${r.stdout}${r.stderr}`);
    }
    for (let t = 0; t < opts.trials; t++) {
      const phase = SOAK_PHASES[Math.floor(random() * SOAK_PHASES.length)] ?? 'download';
      const figures = result.byPhase[phase];
      const before = await readState(world);
      await publishAll();
      sim.clearFaults();
      if (phase === 'download') {
        // One slow asset keeps the run downloading for a while.
        const slow = APPS[3]?.name ?? 'soak-d';
        sim.fault(`/dl/${slow}/${version}.0/${slow}-${version}.0-x86_64.AppImage`, {
          throttleBytesPerSec: 4096,
          methods: ['GET'],
        });
      }
      const killed = await killedRun(world, phase, random);
      sim.clearFaults();
      figures.trials++;
      if (killed) figures.killed++;
      const problems: string[] = [];
      const corruptAfterKill = await corruptFiles(world, known);
      problems.push(...corruptAfterKill.map((f) => `after the kill: ${f}`));
      const rerun = await world.run(['--json', 'update']);
      if (rerun.code !== 0) {
        problems.push(`rerun exited ${String(rerun.code)}: ${rerun.stdout}${rerun.stderr}`);
        figures.notConverged++;
      }
      const stray: string[] = [];
      const corruptAfterRerun = await corruptFiles(world, known, stray);
      problems.push(...corruptAfterRerun.map((f) => `after the rerun: ${f}`));
      figures.corruptInstalls += corruptAfterKill.length + corruptAfterRerun.length;
      const lost = await lostPrevious(world, before, `${version}.0`);
      figures.lostPrevious += lost.length;
      problems.push(...lost);
      const stuck = [...(await notConverged(world)), ...stray.map((f) => `stray file ${f}`)];
      if (stuck.length > 0 && rerun.code === 0) figures.notConverged++;
      problems.push(...stuck);
      for (const p of problems) result.problems.push(`trial ${t + 1} (${phase}): ${p}`);
      opts.log?.(
        `trial ${t + 1}/${opts.trials} ${phase}: ${killed ? 'killed' : 'finished first'}${problems.length ? `, ${problems.length} problem(s)` : ''}`,
      );
    }
  } finally {
    await world.home.cleanup();
  }
  for (const f of Object.values(result.byPhase)) {
    for (const k of Object.keys(f) as (keyof SoakFigures)[]) result.total[k] += f[k];
  }
  return result;
}

async function readState(world: SimWorld): Promise<StateJson> {
  return world.readState<StateJson>('empty');
}

/**
 * Starts `update` and kills it with SIGKILL when the phase's trigger fires (plus a random delay
 * inside the phase); returns whether the kill landed before the run ended.
 */
async function killedRun(world: SimWorld, phase: SoakPhase, random: () => number): Promise<boolean> {
  const bg = startCli(['--json', 'update'], world.env);
  const watchers: FSWatcher[] = [];
  let fired = false;
  const kill = (delayMs: number): void => {
    if (fired) return;
    fired = true;
    if (delayMs <= 0) bg.child.kill('SIGKILL');
    else setTimeout(() => bg.child.kill('SIGKILL'), delayMs);
  };
  const on = (dir: string, match: (name: string) => boolean, delay: () => number): void => {
    try {
      watchers.push(
        watch(dir, (_e, name) => {
          if (name && match(name)) kill(delay());
        }),
      );
    } catch {
      // The folder does not exist yet: that trigger cannot fire this time.
    }
  };
  const { storageDir } = world;
  const partials = partialsDir(world.env);
  await mkdir(partials, { recursive: true });
  const stateDir = world.home.stateDir;
  const applications = join(world.home.dataHome, 'applications');
  switch (phase) {
    case 'download':
      // A full download writes into a partial in the cache; zsync and blockmap into storage_dir.
      on(storageDir, isFetchTemp, () => 50 + Math.floor(random() * 1500));
      on(
        partials,
        () => true,
        () => 50 + Math.floor(random() * 1500),
      );
      break;
    case 'verify':
      on(storageDir, isFetchTemp, () => Math.floor(random() * 25));
      break;
    case 'rename':
      on(
        join(stateDir, 'pending'),
        (n) => n.endsWith('.json') || n.endsWith('.tmp'),
        () => 0,
      );
      on(
        storageDir,
        (n) => n.endsWith('.AppImage') && !n.startsWith('.'),
        () => 0,
      );
      break;
    case 'desktop':
      on(
        applications,
        (n) => n.includes('.desktop'),
        () => Math.floor(random() * 3),
      );
      break;
    case 'state':
      on(
        stateDir,
        (n) => n.startsWith('.state.json.'),
        () => Math.floor(random() * 3),
      );
      break;
  }
  const done = await bg.done;
  for (const w of watchers) w.close();
  return done.signal === 'SIGKILL';
}

/** A temp file a download, zsync or blockmap transfer writes (not a staged kept version). */
function isFetchTemp(name: string): boolean {
  return name.startsWith(TEMP_PREFIX) && !name.endsWith('.previous');
}

/**
 * Final-named files (`*.AppImage`, installed and kept) whose bytes are no published version of
 * their app; other visible names (a `.foreign-` copy, an old temp naming) are listed in `stray`.
 */
async function corruptFiles(
  world: SimWorld,
  known: Map<string, Set<string>>,
  stray: string[] = [],
): Promise<string[]> {
  const bad: string[] = [];
  const dirs = [world.storageDir, join(world.storageDir, '.appimage-keeper-previous')];
  for (const dir of dirs) {
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (name.startsWith('.')) continue;
      const app = APPS.find((a) => name === `${a.name}.AppImage` || name.startsWith(`${a.name}-`));
      if (!app || !name.endsWith('.AppImage')) {
        stray.push(join(dir, name));
        continue;
      }
      const digest = sha256(await readFile(join(dir, name)));
      if (!known.get(app.name)?.has(digest)) bad.push(`${join(dir, name)} holds bytes no release published`);
    }
  }
  return bad;
}

/** After the rerun: each app runs `latest`, and the version it ran before the trial is kept intact. */
async function lostPrevious(world: SimWorld, before: StateJson, latest: string): Promise<string[]> {
  const after = await readState(world);
  const lost: string[] = [];
  for (const app of APPS) {
    const was = before.apps[app.name]?.installed;
    const now = after.apps[app.name];
    if (now?.installed?.version !== latest) {
      lost.push(`${app.name}: installed ${now?.installed?.version ?? 'nothing'}, expected ${latest}`);
    }
    const prev = now?.previous;
    if (!was) continue;
    if (!prev || prev.version !== was.version) {
      lost.push(`${app.name}: previous is ${prev?.version ?? 'none'}, expected ${was.version}`);
      continue;
    }
    const bytes = await readFile(prev.file).catch(() => undefined);
    if (!bytes || sha256(bytes) !== prev.sha256 || prev.sha256 !== was.sha256) {
      lost.push(`${app.name}: the kept ${prev.version} at ${prev.file} is missing or changed`);
    }
  }
  return lost;
}

/** A converged world: a further run has nothing to do and no temp or pending file is left. */
async function notConverged(world: SimWorld): Promise<string[]> {
  const problems: string[] = [];
  const again = await world.run(['--json', 'update']);
  const apps = (again.json as { apps?: { name: string; status: string }[] } | undefined)?.apps ?? [];
  if (again.code !== 0 || apps.some((a) => a.status !== 'up_to_date')) {
    problems.push(`the run after the rerun was not all up to date: ${again.stdout}${again.stderr}`);
  }
  const temps = [
    ...(await tempFiles(world.storageDir)),
    ...(await tempFiles(join(world.storageDir, '.appimage-keeper-previous'))),
  ];
  if (temps.length > 0) problems.push(`temp files left: ${temps.join(', ')}`);
  const pending = await readdir(join(world.home.stateDir, 'pending')).catch(() => [] as string[]);
  if (pending.length > 0) problems.push(`pending intents left: ${pending.join(', ')}`);
  const state = await readState(world);
  for (const app of APPS.filter((a) => a.desktop)) {
    const desktop = state.apps[app.name]?.integration?.desktopFile;
    const text = desktop ? await readFile(desktop, 'utf8').catch(() => undefined) : undefined;
    const installed = state.apps[app.name]?.installed?.file ?? '';
    if (!text || !text.includes(installed)) {
      problems.push(
        `${app.name}: desktop entry ${desktop ?? '(none)'} missing or not launching ${installed}`,
      );
    }
  }
  return problems;
}
