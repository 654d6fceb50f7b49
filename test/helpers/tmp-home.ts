import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A throwaway home directory with XDG dirs and an environment that points at it. */
export interface TmpHome {
  root: string;
  home: string;
  /** Environment for the CLI or the core: XDG_* under root, PATH kept, NO_COLOR=1, no forge tokens. */
  env: NodeJS.ProcessEnv;
  /** `$XDG_CONFIG_HOME/appimage-keeper` (the default config dir). */
  configDir: string;
  appsDir: string;
  /** `$XDG_STATE_HOME/appimage-keeper` (state of the default config dir). */
  stateDir: string;
  dataHome: string;
  /** Writes `<configDir>/config.yml` and returns its path. */
  writeConfig(text: string): Promise<string>;
  /** Writes a recipe as `apps/<name>/<name>.yml` (folder, default) or `apps/<name>.yml` (flat). */
  writeRecipe(name: string, text: string, layout?: 'folder' | 'flat'): Promise<string>;
  cleanup(): Promise<void>;
}

const TOKEN_VARS = ['HUB_TOKEN', 'GITHUB_TOKEN', 'GH_TOKEN'];

/** Creates a temp home under the OS temp dir; call `cleanup()` when done. */
export async function makeTmpHome(): Promise<TmpHome> {
  const root = await mkdtemp(join(tmpdir(), 'ak-'));
  const home = join(root, 'home');
  const configHome = join(root, 'config');
  const stateHome = join(root, 'state');
  const dataHome = join(root, 'data');
  const cacheHome = join(root, 'cache');
  await Promise.all(
    [home, configHome, stateHome, dataHome, cacheHome].map((d) => mkdir(d, { recursive: true })),
  );
  const configDir = join(configHome, 'appimage-keeper');
  const appsDir = join(configDir, 'apps');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: configHome,
    XDG_STATE_HOME: stateHome,
    XDG_DATA_HOME: dataHome,
    XDG_CACHE_HOME: cacheHome,
    // The system's data dirs (desktop entries of installed packages) are the temp home's own.
    XDG_DATA_DIRS: join(root, 'system-data'),
    NO_COLOR: '1',
    LANG: 'C.UTF-8',
  };
  for (const name of TOKEN_VARS) delete env[name];
  const put = async (file: string, text: string): Promise<string> => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    return file;
  };
  return {
    root,
    home,
    env,
    configDir,
    appsDir,
    stateDir: join(stateHome, 'appimage-keeper'),
    dataHome,
    writeConfig: (text) => put(join(configDir, 'config.yml'), text),
    writeRecipe: (name, text, layout = 'folder') =>
      put(layout === 'flat' ? join(appsDir, `${name}.yml`) : join(appsDir, name, `${name}.yml`), text),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
