/**
 * Offline: 200 apps with no network at all (the CLI in a network namespace of its own,
 * `unshare -n`), wall time of `update` from process start to exit 75; goal ≤ 2 s. The `--version`
 * row is the bare process start on the same machine, for scale.
 *
 *   npx tsx bench/offline.ts [--apps 200] [--runs 5] [--smoke]
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, numberArg } from './cli-args.js';

const CLI = fileURLToPath(new URL('../dist/appimage-keeper.cjs', import.meta.url));
const apps = numberArg('apps', 200, 3);
const runs = numberArg('runs', 5, 1);

if (spawnSync('unshare', ['-n', 'true'], { stdio: 'ignore' }).status !== 0) {
  console.log('offline bench skipped: unshare -n is not permitted here (needs root or user namespaces)');
  process.exit(0);
}

const root = await mkdtemp(join(tmpdir(), 'ak-bench-offline-'));
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: join(root, 'home'),
  XDG_CONFIG_HOME: join(root, 'config'),
  XDG_STATE_HOME: join(root, 'state'),
  XDG_DATA_HOME: join(root, 'data'),
  XDG_CACHE_HOME: join(root, 'cache'),
  NO_COLOR: '1',
};
const appsDir = join(root, 'config', 'appimage-keeper', 'apps');
await mkdir(appsDir, { recursive: true });
for (let i = 0; i < apps; i++) {
  const name = `off${i}`;
  await writeFile(
    join(appsDir, `${name}.yml`),
    `name: ${name}\nstrategy:\n  strategy: forge\n  repository: https://github.com/example/${name}\n  asset_match: "${name}-*"\n`,
  );
}

function time(args: string[], expectCode: number): number {
  const t = process.hrtime.bigint();
  const r = spawnSync('unshare', ['-n', process.execPath, CLI, ...args], { env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== expectCode)
    throw new Error(`exit ${r.status}, expected ${expectCode}: ${r.stdout}${r.stderr}`);
  return ms;
}

try {
  const start = Array.from({ length: runs }, () => time(['--version'], 0));
  const offline = Array.from({ length: runs }, () => time(['--quiet', 'update'], 75));
  console.log(
    `offline update, ${apps} apps, no network: median ${median(offline).toFixed(0)} ms wall (max ${Math.max(...offline).toFixed(0)} ms; goal ≤ 2000 ms)`,
  );
  console.log(`process start (--version), for scale:     median ${median(start).toFixed(0)} ms wall`);
} finally {
  await rm(root, { recursive: true, force: true });
}
