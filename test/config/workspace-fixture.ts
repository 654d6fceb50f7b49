import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { resolvePaths } from '../../src/config/paths.js';
import { loadWorkspace, type AppEntry, type Workspace } from '../../src/config/workspace.js';
import type { AppSettings } from '../../src/config/types.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

/** A direct-strategy recipe body; `extra` keys are added at the top level. */
export function directRecipe(name: string, extra: Record<string, unknown> = {}): string {
  // Each app its own URL: two recipes following one asset are a warning (same-source-warnings.ts).
  return stringify({
    name,
    strategy: {
      strategy: 'direct',
      url: `https://example.com/${encodeURIComponent(name)}.AppImage`,
      check_method: 'etag',
    },
    ...extra,
  });
}

/** Loads the tmp home's default config dir (or `configDir`) the way the CLI does. */
export function load(h: TmpHome, env: NodeJS.ProcessEnv = h.env, configDir?: string): Promise<Workspace> {
  return loadWorkspace(resolvePaths(env, configDir), env);
}

/** The one app of a workspace that must have loaded. */
export function okApp(ws: Workspace, name: string): AppSettings {
  const app = ws.apps.find((a) => a.name === name);
  if (!app) throw new Error(`no app ${name}; have ${ws.apps.map((a) => a.name).join(', ')}`);
  if (!app.ok) throw new Error(`app ${name} failed: ${app.error.message}`);
  return app.settings;
}

/** The one app of a workspace that must have failed. */
export function failedApp(ws: Workspace, name: string): Extract<AppEntry, { ok: false }> {
  const app = ws.apps.find((a) => a.name === name);
  if (!app) throw new Error(`no app ${name}; have ${ws.apps.map((a) => a.name).join(', ')}`);
  if (app.ok) throw new Error(`app ${name} unexpectedly loaded`);
  return app;
}

/** Writes `<configDir>/secrets.yml` with `mode` (default 0600) and returns its path. */
export async function writeSecrets(h: TmpHome, text: string, mode = 0o600): Promise<string> {
  const file = join(h.configDir, 'secrets.yml');
  await mkdir(h.configDir, { recursive: true });
  await writeFile(file, text);
  await chmod(file, mode);
  return file;
}

/** Runs `fn` in a fresh temp home and removes it afterwards. */
export async function withHome(fn: (h: TmpHome) => Promise<void>): Promise<void> {
  const h = await makeTmpHome();
  try {
    await fn(h);
  } finally {
    await h.cleanup();
  }
}
