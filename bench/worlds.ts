/**
 * Homes the start-up benchmarks share: 5,000 catalogue entries served by the sim (bench/catalogue.ts,
 * bench/startup.ts) and N apps installed and locked (bench/lock.ts, bench/startup.ts).
 */
import { join } from 'node:path';
import { serveCatalogues, type Sim } from '../sim/index.js';
import { publish } from '../test/e2e/update/harness.js';
import { CLI_PATH } from '../test/helpers/run-cli.js';
import { makeSimWorld, type SimWorld } from '../test/helpers/sim-world.js';
import type { TmpHome } from '../test/helpers/tmp-home.js';
import { runNodeChild } from './node-child.js';

const WORDS = ['note', 'editor', 'player', 'browser', 'studio', 'viewer', 'chat', 'code', 'paint', 'music'];
const word = (i: number): string => WORDS[i % WORDS.length] ?? 'app';

/**
 * Serves `entries` catalogue entries from the sim (half an AppImageHub feed, half an AM list) and
 * names both catalogues in `home`'s config.yml; returns their URLs.
 */
export async function catalogueHome(
  sim: Sim,
  home: TmpHome,
  entries: number,
): Promise<{ hub: string; am: string }> {
  const half = Math.floor(entries / 2);
  const served = serveCatalogues(sim, {
    hub: Array.from({ length: half }, (_, i) => ({
      name: `${word(i)}-${i}`,
      description: `<p>A ${word(i + 3)} for ${word(i + 7)} people, entry ${i}.</p>`,
      github: `owner${i}/${word(i)}-${i}`,
    })),
    am: Array.from({ length: entries - half }, (_, i) => ({
      name: `${word(i + 1)}${i}`,
      description: `The ${word(i + 5)} app number ${i}.`,
    })),
  });
  await home.writeConfig(
    [
      `storage_dir: ${join(home.root, 'storage')}`,
      'catalogues:',
      `  - ${served.hub}`,
      `  - ${served.am}`,
      '',
    ].join('\n'),
  );
  return served;
}

/** `apps` forge apps (real AppImages) installed from the sim and locked: `update --locked` sends nothing. */
export async function lockedWorld(sim: Sim, apps: number, cli = CLI_PATH): Promise<SimWorld> {
  const w = await makeSimWorld(sim);
  for (let i = 0; i < apps; i++) {
    const name = `lk${String(i).padStart(3, '0')}`;
    await publish(sim, name, '1.0.0');
    await w.writeForgeRecipe(name);
  }
  for (const args of [['update'], ['lock'], ['update', '--locked']])
    await runNodeChild([cli, '--json', ...args], w.env);
  return w;
}
