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
