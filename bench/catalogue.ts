/**
 * `search` over 5,000 cached catalogue entries (2,500 in an AppImageHub feed, 2,500 in an AM list,
 * served once by the sim and then read from $XDG_CACHE_HOME), and a `--refresh` with nothing
 * changed, which must cost one conditional request per catalogue, each answered 304.
 *
 *   npm run build && npx tsx bench/catalogue.ts [--rounds 7] [--entries 5000] [--smoke]
 *
 * Prints a markdown table: the median wall time of the built CLI's `search` (target: at most
 * 100 ms), the in-process cost of parsing the cached text and ranking it, and the refresh's requests.
 */
import { createContext } from '../src/cli/runtime.js';
import { loadCatalogues } from '../src/app/catalogues.js';
import { rankEntries } from '../src/app/search.js';
import { searchTerms } from '../src/sources/catalogues/rank.js';
import { startSim } from '../sim/index.js';
import { CLI_PATH, runCli } from '../test/helpers/run-cli.js';
import { makeTmpHome } from '../test/helpers/tmp-home.js';
import { median, numberArg } from './cli-args.js';
import { timeRun } from './time-run.js';
import { catalogueHome } from './worlds.js';

const rounds = numberArg('rounds', 7, 1);
const entries = numberArg('entries', 5000, 20);
const half = Math.floor(entries / 2);
const sim = await startSim();
const home = await makeTmpHome();
try {
  const served = await catalogueHome(sim, home, entries);
  const env = home.env;
  // The sim runs in this process: runs that reach it are spawned asynchronously, timed here.
  const timedAsync = async (args: string[]): Promise<number> => {
    const t0 = performance.now();
    const r = await runCli(args, { env });
    if (r.code !== 0) throw new Error(`search exited ${r.code}: ${r.stderr}`);
    return performance.now() - t0;
  };
  const first = { wall: await timedAsync(['search', 'editor']) };
  const walls: number[] = [];
  for (let r = 0; r < rounds; r++)
    walls.push(1000 * timeRun(['node', CLI_PATH, 'search', 'editor', 'people'], env).wall);
  const version: number[] = [];
  for (let r = 0; r < rounds; r++) version.push(1000 * timeRun(['node', CLI_PATH, '--version'], env).wall);
  const bare: number[] = [];
  for (let r = 0; r < rounds; r++) bare.push(1000 * timeRun(['node', '-e', '0'], env).wall);

  const ctx = createContext(
    { json: false, color: false, quiet: true, verbose: false, layout: 'user' },
    env,
    () => undefined,
  );
  const inProcess: number[] = [];
  const ranking: number[] = [];
  let hits = 0;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    const loaded = await loadCatalogues(ctx, { catalogues: [served.hub, served.am] });
    const t1 = performance.now();
    hits = rankEntries(loaded, searchTerms(['editor', 'people'])).length;
    inProcess.push(performance.now() - t0);
    ranking.push(performance.now() - t1);
  }

  sim.clearRequests();
  const refresh = { wall: await timedAsync(['search', '--refresh', 'editor']) };
  const sent = sim.requests.filter((r) => r.path.startsWith('/cat/'));
  const conditional = sent.filter((r) => r.headers['if-none-match'] !== undefined).length;

  const ms = (n: number): string => `${n.toFixed(1)} ms`;
  const ok = (good: boolean): string => (good ? 'ok' : '**over**');
  const cliWall = median(walls);
  console.log(
    `\nbench/catalogue: ${entries} entries (${half} AppImageHub, ${entries - half} AM), ${rounds} rounds, medians\n`,
  );
  console.log('| measure | value | target | |');
  console.log('| --- | --- | --- | --- |');
  console.log(`| first search (fetch both, fill the cache) | ${ms(first.wall)} | — | |`);
  console.log(
    `| \`search editor people\` from the cache, CLI wall | ${ms(cliWall)} | ≤ 100 ms | ${ok(cliWall <= 100)} |`,
  );
  console.log(`| \`--version\` wall (the CLI's own start, for scale) | ${ms(median(version))} | — | |`);
  console.log(`| bare \`node -e 0\` wall (for scale) | ${ms(median(bare))} | — | |`);
  console.log(
    `| read both cache files + rank, in process (${hits} hits) | ${ms(median(inProcess))} | ≤ 100 ms | ${ok(median(inProcess) <= 100)} |`,
  );
  console.log(`| of which ranking the ${entries} entries | ${ms(median(ranking))} | — | |`);
  console.log(
    `| \`search --refresh\`, nothing changed: requests | ${sent.length} (${conditional} conditional) | 2, all 304 | ${ok(sent.length === 2 && conditional === 2)} |`,
  );
  console.log(`| \`search --refresh\` wall | ${ms(refresh.wall)} | — | |`);
} finally {
  await home.cleanup();
  await sim.stop();
}
