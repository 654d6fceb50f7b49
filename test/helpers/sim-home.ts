/**
 * A temp home whose config.yml points the hub at the sim (storage and symlink folders inside it,
 * no public proxy or catalogue): what every world on the sim starts from, built CLI or in-process.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sim } from '../../sim/index.js';
import { makeTmpHome, type TmpHome } from './tmp-home.js';

/** The home, its environment and the folders config.yml names. */
export interface SimHome {
  home: TmpHome;
  env: NodeJS.ProcessEnv;
  storageDir: string;
  symlinkDir: string;
}

/**
 * Creates the home: config.yml sets storage_dir, symlink_dir, the sim's hub API and web base and
 * `hub_proxy: false`, no catalogues unless `configLines` names some, then `configLines`.
 */
export async function makeSimHome(
  sim: Sim,
  configLines: string[] = [],
  createStorageDir = true,
): Promise<SimHome> {
  const home = await makeTmpHome();
  const storageDir = join(home.root, 'storage');
  const symlinkDir = join(home.root, 'bin');
  if (createStorageDir) await mkdir(storageDir, { recursive: true });
  await home.writeConfig(
    [
      `storage_dir: ${storageDir}`,
      `symlink_dir: ${symlinkDir}`,
      `hub_release_api_url: ${sim.hubApiUrl}`,
      `hub_release_web_url: ${sim.url}`,
      'hub_proxy: false',
      // The default catalogues are public hosts: a test names the sim's, or reads none.
      ...(configLines.some((l) => l.startsWith('catalogues:')) ? [] : ['catalogues: []']),
      ...configLines,
      '',
    ].join('\n'),
  );
  // Nothing may reach a public host: the built-in proxy list is empty.
  return { home, env: { ...home.env, APPIMAGE_KEEPER_PROXY_BUILTINS: '' }, storageDir, symlinkDir };
}
