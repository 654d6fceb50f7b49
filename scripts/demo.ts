// `npm run demo`: the main job end to end against the loopback forge simulator, in a temporary
// HOME, with the real CLI. Nothing leaves 127.0.0.1.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSim } from '../sim/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'appimage-keeper.cjs');
const fixtures = join(root, 'fixtures', 'demo');
const keep = process.argv.includes('--keep');

if (!existsSync(cli)) {
  console.log('building the CLI first (npm run build)...');
  const b = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

const home = mkdtempSync(join(tmpdir(), 'appimage-keeper-demo-'));
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  TERM: process.env.TERM,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_STATE_HOME: join(home, '.local', 'state'),
  XDG_DATA_HOME: join(home, '.local', 'share'),
  XDG_CACHE_HOME: join(home, '.cache'),
};
const sim = await startSim();
env.DEMO_SIM_URL = sim.url;

// The committed sample AppImages are tiny; trailing padding (ignored by the runtime and the
// SquashFS reader) makes the downloads long enough to watch the progress bars.
const PAD = Buffer.alloc(3 << 20);
function bold(text: string): string {
  return process.stdout.isTTY && !process.env.NO_COLOR ? `\x1b[1m${text}\x1b[0m` : text;
}
function file(name: string): Buffer {
  return Buffer.concat([readFileSync(join(fixtures, name)), PAD]);
}
function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}
function publishHello(version: string): void {
  const body = file(`hello-${version}.AppImage`);
  const name = `hello-${version}-x86_64.AppImage`;
  const url = sim.putAsset(`/releases/hello/${name}`, body);
  const arm = sim.putAsset(`/releases/hello/hello-${version}-aarch64.AppImage`, body);
  sim.hub.setLatest('demo', 'hello', {
    tag: `v${version}`,
    assets: [
      { name, url, size: body.length, digest: `sha256:${sha256(body)}` },
      // A second architecture: the recipe's glob matches both, the tool picks this machine's.
      { name: `hello-${version}-aarch64.AppImage`, url: arm, size: body.length },
    ],
  });
}
// The simulator lives in this process, so the CLI must run asynchronously (spawnSync would block it).
async function run(title: string, args: string[]): Promise<void> {
  console.log(`\n${bold(`$ appimage-keeper ${args.join(' ')}`)}   # ${title}`);
  const child = spawn(process.execPath, [cli, ...args], { env, stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0 && code !== 1) throw new Error(`appimage-keeper exited ${code}`);
}

try {
  // Slow the assets down a little so the progress bars are visible.
  sim.fault(/^\/(releases|downloads|files)\//, { throttleBytesPerSec: 1 << 20, methods: ['GET'] });
  publishHello('1.0.0');
  sim.putAsset('/downloads/tool-latest.AppImage', file('tool-2.0.AppImage'), { etag: '"tool-2.0"' });
  sim.putAsset('/files/scripted-3.1.AppImage', file('scripted-3.1.AppImage'));

  const configDir = join(env.XDG_CONFIG_HOME as string, 'appimage-keeper');
  await run('starter config with every field', ['init', '--global']);
  const config = readFileSync(join(configDir, 'config.yml'), 'utf8')
    .replace(/^hub_release_api_url:.*$/m, `hub_release_api_url: ${sim.hubApiUrl}`)
    .replace(/^hub_release_web_url:.*$/m, `hub_release_web_url: ${sim.url}`)
    .replace(/^create_symlinks:.*$/m, 'create_symlinks: true')
    .replace(/^hub_proxy:.*$/m, 'hub_proxy: false');
  writeFileSync(join(configDir, 'config.yml'), config);
  const apps = join(configDir, 'apps');
  mkdirSync(join(apps, 'hello'), { recursive: true });
  writeFileSync(
    join(apps, 'hello', 'hello.yml'),
    `name: hello\nstrategy:\n  strategy: forge\n  repository: ${sim.url}/demo/hello\n  asset_match: "hello-*.AppImage"\n`,
  );
  writeFileSync(
    join(apps, 'tool.yml'),
    `name: tool\nstrategy:\n  strategy: direct\n  url: ${sim.url}/downloads/tool-latest.AppImage\n  check_method: etag\n`,
  );
  mkdirSync(join(apps, 'scripted'), { recursive: true });
  writeFileSync(
    join(apps, 'scripted', 'scripted.yml'),
    'name: scripted\nnaming_format: "{name}-{version}.AppImage"\nstrategy:\n  strategy: script\n  script_path: resolver.sh\n',
  );
  writeFileSync(
    join(apps, 'scripted', 'resolver.sh'),
    '#!/usr/bin/env bash\necho "$DEMO_SIM_URL/files/scripted-3.1.AppImage"\necho "3.1"\n',
  );
  chmodSync(join(apps, 'scripted', 'resolver.sh'), 0o755);

  await run('three recipes: forge, direct, script', ['validate']);
  await run('first install of everything', ['update']);
  publishHello('1.1.0');
  console.log('\n# the simulator now publishes hello v1.1.0');
  await run('what is new?', ['check']);
  await run('one app updated', ['update']);
  await run('nothing to do: one summary line', ['update']);
  await run('the same as the timer runs it: prints nothing', ['--quiet', 'update']);
  await run('what is installed', ['list']);

  console.log(`\n${bold('Where everything landed')}`);
  const show = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { recursive: true }) as string[]) {
      console.log(`  ~/${relative(home, join(dir, entry))}`);
    }
  };
  show(join(home, '.local', 'bin'));
  show(join(home, '.local', 'share', 'applications'));
  show(join(home, '.local', 'share', 'icons'));
  console.log(
    `  state: ~/${relative(home, join(env.XDG_STATE_HOME as string, 'appimage-keeper', 'state.json'))}`,
  );
  console.log(`\nThe installed AppImages run:`);
  for (const f of readdirSync(join(home, '.local', 'bin', 'AppImages')).filter((f) =>
    f.endsWith('.AppImage'),
  )) {
    const r = spawnSync(join(home, '.local', 'bin', 'AppImages', f), { encoding: 'utf8' });
    console.log(`  ${f}: ${r.stdout.trim()}`);
  }
} finally {
  await sim.stop();
  if (keep) console.log(`\n(kept ${home})`);
  else rmSync(home, { recursive: true, force: true });
}
