import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSim, type Sim } from '../../sim/index.js';
import { REPO_ROOT } from '../helpers/run-cli.js';
import { sha256 } from '../helpers/sha256.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

/** A temp home whose config points at a running sim, with `hello` published at a version. */
export interface SimHome {
  h: TmpHome;
  sim: Sim;
  storageDir: string;
  /** Publishes hello `version` (1.0.0 or 1.1.0, the demo fixtures) as the latest release. */
  publish(version: '1.0.0' | '1.1.0'): Promise<Buffer>;
  cleanup(): Promise<void>;
}

/** Starts a sim and a temp home with config.yml (extra lines appended) and the `hello` recipe. */
export async function makeSimHome(extraConfig = '', recipeExtra = ''): Promise<SimHome> {
  const h = await makeTmpHome();
  const sim = await startSim();
  const storageDir = join(h.root, 'apps');
  // No public proxy bases in tests: nothing may leave 127.0.0.1.
  h.env.APPIMAGE_KEEPER_PROXY_BUILTINS = '';
  await h.writeConfig(
    [
      `storage_dir: ${storageDir}`,
      `hub_release_api_url: ${sim.hubApiUrl}`,
      `hub_release_web_url: ${sim.url}`,
      'hub_proxy: false',
      extraConfig,
    ].join('\n'),
  );
  await h.writeRecipe(
    'hello',
    `name: hello\nstrategy:\n  strategy: forge\n  repository: ${sim.url}/demo/hello\n  asset_match: "hello-*.AppImage"\n${recipeExtra}`,
  );
  return {
    h,
    sim,
    storageDir,
    async publish(version) {
      const body = await readFile(join(REPO_ROOT, 'fixtures', 'demo', `hello-${version}.AppImage`));
      const name = `hello-${version}-x86_64.AppImage`;
      const url = sim.putAsset(`/releases/hello/${name}`, body);
      const digest = `sha256:${sha256(body)}`;
      sim.hub.setLatest('demo', 'hello', {
        tag: `v${version}`,
        assets: [{ name, url, size: body.length, digest }],
      });
      return body;
    },
    async cleanup() {
      await sim.stop();
      await h.cleanup();
    },
  };
}
