import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sim } from '../../../sim/index.js';
import { disposeFixtureAppImages, fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { publishHubRelease, type HubReleaseOptions, type PublishedAsset } from '../../helpers/hub-release.js';
import type { CliRun } from '../../helpers/run-cli.js';
import { makeSimWorld } from '../../helpers/sim-world.js';
import { useSimSuite, type SimSuite } from '../../helpers/sim-suite.js';
import type { TmpHome } from '../../helpers/tmp-home.js';
import type { UpdateJson } from '../../helpers/update-json.js';

/** The part of state.json these tests read. */
export interface StateJson {
  apps: Record<
    string,
    {
      installed?: { version: string; identity: string; file: string; sha256: string };
      previous?: { version: string; file: string };
      symlink?: string;
      lastError?: { code: string; message: string };
    }
  >;
}

/** Size of a segmented-eligible asset: over 2 x minSegmentBytes (4 MiB) with some margin. */
export const BIG_PAD_BYTES = 9 * 1024 * 1024;

/** Options of one release published on the sim's hub. */
export interface PublishOptions extends HubReleaseOptions {
  /** Body (default: the app's real AppImage for that version). */
  body?: Buffer;
}

/** Publishes `<version>` of `e2e/<app>` (tag = version) with its asset at the hub's download path. */
export async function publish(
  sim: Sim,
  app: string,
  version: string,
  opts: PublishOptions = {},
): Promise<PublishedAsset & { body: Buffer }> {
  const body = opts.body ?? (await fixtureAppImage(app, version));
  return { ...publishHubRelease(sim, app, version, body, opts), body };
}

/** A temp home configured against the sim, with helpers to write recipes and run `update`. */
export interface World {
  home: TmpHome;
  env: NodeJS.ProcessEnv;
  storageDir: string;
  symlinkDir: string;
  /** A forge recipe for `app` on the sim's hub, plus extra YAML lines. */
  forgeRecipe(app: string, extra?: string, glob?: string): Promise<void>;
  recipe(app: string, yaml: string): Promise<void>;
  update(args?: string[], timeoutMs?: number): Promise<CliRun<UpdateJson>>;
  cli(args: string[], timeoutMs?: number): Promise<CliRun>;
  state(): Promise<StateJson>;
  cleanup(): Promise<void>;
}

/** Creates a World whose config.yml points at `sim` (hub API and web base, no proxies). */
export async function makeWorld(sim: Sim, globalExtra = ''): Promise<World> {
  const base = await makeSimWorld(sim, { configLines: ['stall_timeout: 2', globalExtra] });
  const { home } = base;
  return {
    home,
    env: base.env,
    storageDir: base.storageDir,
    symlinkDir: base.symlinkDir,
    forgeRecipe: async (app, extra = '', glob) => {
      await base.writeForgeRecipe(app, { extra: [extra], ...(glob ? { glob } : {}) });
    },
    recipe: async (app, yaml) => {
      await home.writeRecipe(app, yaml);
    },
    update: (args = [], timeoutMs) => base.run<UpdateJson>(['--json', 'update', ...args], timeoutMs),
    cli: (args, timeoutMs) => base.run(args, timeoutMs),
    state: () => base.readState<StateJson>('empty'),
    cleanup: () => home.cleanup(),
  };
}

/** The suite of one describe block: a sim, worlds on it (`world(globalExtra)`), fixtures dropped after. */
export function useUpdateSuite(): SimSuite<World, [globalExtra?: string]> {
  return useSimSuite(makeWorld, disposeFixtureAppImages);
}

/**
 * A hosts file where `forge.test` is the loopback, for a proxy run in its own mount namespace: only
 * that proxy can resolve the name, as in a company network. `skip` says why it cannot be done here.
 */
export interface ForgeTestHosts {
  skip: string | false;
  /** `cmd args` wrapped to run with that hosts file (the wrap of startTinyproxy/startMicrosocks). */
  wrap: (cmd: string, args: string[]) => [string, string[]];
  dispose: () => void;
}

/** Makes the hosts file and probes whether `unshare -m` may bind-mount it here. */
export function forgeTestHosts(): ForgeTestHosts {
  const dir = mkdtempSync(join(tmpdir(), 'keeper-hosts-'));
  writeFileSync(join(dir, 'hosts'), `127.0.0.1 forge.test\n${readFileSync('/etc/hosts', 'utf8')}`);
  const mount = `mount --bind ${dir}/hosts /etc/hosts`;
  const probe = spawnSync('unshare', ['-m', 'sh', '-c', mount]);
  return {
    skip:
      probe.status === 0
        ? false
        : 'unshare -m with a bind-mounted /etc/hosts is not permitted here (needs root)',
    wrap: (cmd, args) => ['unshare', ['-m', 'sh', '-c', `${mount} && exec ${cmd} ${args.join(' ')}`]],
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Points `w`'s hub API and web base at `origin` (the sim under another name or behind TLS), writes
 * a forge recipe for `e2e/<app>` there and publishes `app` 1.0.0 with its asset under `origin`.
 */
export async function publishAtOrigin(sim: Sim, w: World, origin: string, app: string): Promise<void> {
  const hubApiPath = sim.hubApiUrl.slice(sim.url.length);
  const config = readFileSync(join(w.home.configDir, 'config.yml'), 'utf8')
    .replace(/^hub_release_api_url: .*$/m, `hub_release_api_url: ${origin}${hubApiPath}`)
    .replace(/^hub_release_web_url: .*$/m, `hub_release_web_url: ${origin}`);
  await w.home.writeConfig(config);
  await w.recipe(
    app,
    [
      `name: ${app}`,
      'strategy:',
      '  strategy: forge',
      `  repository: ${origin}/e2e/${app}`,
      `  asset_match: "${app}-*"`,
      '',
    ].join('\n'),
  );
  const published = await publish(sim, app, '1.0.0');
  sim.hub.setLatest('e2e', app, {
    tag: '1.0.0',
    assets: [{ name: published.assetName, url: `${origin}${published.path}`, size: published.body.length }],
  });
}

/** Polls `probe` every 20 ms until it returns a value, or throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export { startCli, type BackgroundCli } from '../../helpers/run-cli.js';
