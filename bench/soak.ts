/**
 * The kill soak: `kill -9` of the built CLI at random points (download, verify, rename, desktop
 * write, state save) while it updates four apps at once against the sim, each trial followed by a
 * rerun and a convergence run.
 *
 *   npm run build && npx tsx bench/soak.ts [--trials 50] [--seed 1] [--json FILE] [--smoke]
 *
 * Prints a markdown table per phase: trials, kills that landed, corrupt installs, lost previous
 * versions, runs that did not converge. Exits 1 when any of the last three is not 0.
 */
import { writeFile } from 'node:fs/promises';
import { startSim } from '../sim/index.js';
import { disposeFixtureAppImages } from '../test/helpers/fixture-appimages.js';
import { runKillSoak, SOAK_PHASES, type SoakFigures } from '../test/helpers/kill-soak.js';
import { numberArg, textArg } from './cli-args.js';

const trials = numberArg('trials', 50, 1);
const seed = numberArg('seed', 1);
const jsonOut = textArg('json');

const sim = await startSim();
try {
  const started = Date.now();
  const r = await runKillSoak(sim, { trials, seed, log: (l) => process.stderr.write(`${l}\n`) });
  const row = (name: string, f: SoakFigures): string =>
    `| ${name} | ${f.trials} | ${f.killed} | ${f.corruptInstalls} | ${f.lostPrevious} | ${f.notConverged} |`;
  console.log(
    `kill -9 soak: ${trials} trials, seed ${seed}, ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
  console.log('| phase | trials | killed | corrupt installs | lost previous versions | not converged |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const p of SOAK_PHASES) console.log(row(p, r.byPhase[p]));
  console.log(row('**all**', r.total));
  for (const p of r.problems) console.log(`- ${p}`);
  if (jsonOut) await writeFile(jsonOut, `${JSON.stringify({ trials, seed, ...r }, null, 2)}\n`);
  const bad = r.total.corruptInstalls + r.total.lostPrevious + r.total.notConverged;
  process.exitCode = bad === 0 ? 0 : 1;
} finally {
  await sim.stop();
  await disposeFixtureAppImages();
}
