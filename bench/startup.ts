/**
 * Start-up cost of the built CLI beside a bare `node -e 0`, measured side by side in one run:
 * `--version`, `completion bash` and `list` with 200 recipes (a fresh HOME). CPU (user + system)
 * and wall time of each run come from bench/time-run.ts.
 *
 *   npm run build && npx tsx bench/startup.ts [--rounds 7] [--recipes 200]
 *
 * Prints a markdown table with the median of each and the targets: `--version` and `completion`
 * at most 1.3x bare node's CPU time, `list` with 200 recipes at most 0.25 s.
 */
import { CLI_PATH } from '../test/helpers/run-cli.js';
import { makeTmpHome } from '../test/helpers/tmp-home.js';
import { median, numberArg } from './cli-args.js';
import { timeRun } from './time-run.js';

const rounds = numberArg('rounds', 7);
const recipes = numberArg('recipes', 200);

type Sample = ReturnType<typeof timeRun>;

const home = await makeTmpHome();
try {
  for (let i = 0; i < recipes; i++) {
    const name = `app${String(i).padStart(3, '0')}`;
    await home.writeRecipe(
      name,
      `name: ${name}\nstrategy:\n  strategy: forge\n  repository: https://github.com/example/${name}\n  asset_match: "${name}-*.AppImage"\n`,
    );
  }
  const cases: {
    label: string;
    args: string[];
    target: (bare: number) => string;
    ok: (s: number, bare: number) => boolean;
  }[] = [
    { label: 'node -e 0 (bare)', args: ['-e', '0'], target: () => '-', ok: () => true },
    {
      label: '--version',
      args: [CLI_PATH, '--version'],
      target: (b) => `CPU <= ${(1.3 * b).toFixed(3)} s (1.3x bare)`,
      ok: (s, b) => s <= 1.3 * b,
    },
    {
      label: 'completion bash',
      args: [CLI_PATH, 'completion', 'bash'],
      target: (b) => `CPU <= ${(1.3 * b).toFixed(3)} s (1.3x bare)`,
      ok: (s, b) => s <= 1.3 * b,
    },
    {
      label: `list (${recipes} recipes)`,
      args: [CLI_PATH, 'list'],
      target: () => 'wall <= 0.250 s',
      ok: () => true,
    },
  ];
  const samples = new Map<string, Sample[]>(cases.map((c) => [c.label, []]));
  // Interleaved rounds, so a busy moment on the machine hits every case alike.
  for (let r = 0; r < rounds; r++) {
    for (const c of cases)
      samples.get(c.label)?.push(timeRun([process.execPath, ...c.args], { ...home.env, NO_COLOR: '1' }));
  }
  const med = (label: string, key: keyof Sample): number =>
    median((samples.get(label) ?? []).map((s) => s[key]));
  const bare = med('node -e 0 (bare)', 'cpu');
  console.log(`\nStart-up, median of ${rounds} interleaved rounds (node ${process.version})\n`);
  console.log('| command | CPU (s) | x bare CPU | wall (s) | target | met |');
  console.log('| --- | ---: | ---: | ---: | --- | --- |');
  for (const c of cases) {
    const cpu = med(c.label, 'cpu');
    const wall = med(c.label, 'wall');
    const met = c.label.startsWith('list') ? wall <= 0.25 : c.ok(cpu, bare);
    console.log(
      `| ${c.label} | ${cpu.toFixed(3)} | ${(cpu / bare).toFixed(2)} | ${wall.toFixed(3)} | ${c.target(bare)} | ${c.label.startsWith('node') ? '' : met ? 'yes' : 'no'} |`,
    );
  }
} finally {
  await home.cleanup();
}
