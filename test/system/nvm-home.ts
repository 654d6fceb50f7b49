/**
 * Temp homes laid out like a Node version manager's user: a node binary and a global
 * appimage-keeper inside `~/.nvm/versions/node/v20.19.0`, and optionally a stable launcher in
 * `~/.local/bin`, each a real executable that runs the built CLI.
 */
import { copyFile, cp, link, mkdir, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CLI_PATH } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

/** One laid-out home. */
export interface NvmHome {
  h: TmpHome;
  /** `~/.nvm/versions/node/v20.19.0/bin` */
  nvmBin: string;
  /** The node binary inside it (a hard link to, or copy of, this test's node). */
  nvmNode: string;
  /** The CLI as `npm install -g` under nvm put it (a copy of the built dist folder). */
  nvmScript: string;
  /** `~/.local/bin` (empty unless `stableLauncher`). */
  localBin: string;
  /** The unit directory. */
  unitDir: string;
}

/** Hard link (cheap) or, across file systems, copy. */
async function linkOrCopy(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await link(from, to).catch(() => copyFile(from, to));
}

/**
 * Lays out a home; with `stableLauncher`, `~/.local/bin/appimage-keeper` links to a copy of the built
 * CLI installed under `~/.local/lib/node_modules`.
 */
export async function makeNvmHome(opts: { stableLauncher: boolean }): Promise<NvmHome> {
  const h = await makeTmpHome();
  const version = join(h.home, '.nvm', 'versions', 'node', 'v20.19.0');
  const nvmBin = join(version, 'bin');
  const nvmNode = join(nvmBin, 'node');
  await linkOrCopy(process.execPath, nvmNode);
  const nvmScript = join(version, 'lib', 'node_modules', 'appimage-keeper', 'dist', 'appimage-keeper.cjs');
  // The bundle is an entry file plus its chunks and completion scripts: copy the whole folder.
  await cp(dirname(CLI_PATH), dirname(nvmScript), { recursive: true });
  await symlink(nvmScript, join(nvmBin, 'appimage-keeper'));
  const localBin = join(h.home, '.local', 'bin');
  await mkdir(localBin, { recursive: true });
  if (opts.stableLauncher) {
    // As `npm install -g --prefix ~/.local` lays it out: a copy of the package, linked from bin/.
    const stableScript = join(
      h.home,
      '.local',
      'lib',
      'node_modules',
      'appimage-keeper',
      'dist',
      'appimage-keeper.cjs',
    );
    await cp(dirname(CLI_PATH), dirname(stableScript), { recursive: true });
    await symlink(stableScript, join(localBin, 'appimage-keeper'));
  }
  return { h, nvmBin, nvmNode, nvmScript, localBin, unitDir: join(h.root, 'config', 'systemd', 'user') };
}
