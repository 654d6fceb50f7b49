import { stat } from 'node:fs/promises';
import type { Context } from '../context/context.js';
import { resolvePaths } from '../config/paths.js';
import { readJsonFile } from '../state/json-file.js';
import { isStateData } from '../state/store.js';
import { table } from '../render/table.js';
import { termPath, termText } from '../render/terminal-text.js';
import { compareNames } from '../core/compare-names.js';

/** An app installed for every user by `--system`, as a user's `list` shows it (read-only). */
export interface SystemApp {
  name: string;
  version: string;
  path: string;
  file_present: boolean;
  symlink: string | null;
}

/**
 * The system layout's installed apps, read from its state (0644 by design) without a lock and
 * without writing; none when this run is itself `--system`, or that state is absent or unreadable.
 */
export async function systemApps(ctx: Context): Promise<SystemApp[]> {
  if (ctx.paths.layout === 'system') return [];
  const { stateFile } = resolvePaths(ctx.env, undefined, 'system');
  // Someone else's state, and only state.json (the cache is root's alone): unreadable or corrupt is
  // root's to act on, so this user's list just shows nothing of it.
  const read = await readJsonFile(stateFile, isStateData, ctx.now(), true).catch(() => undefined);
  if (read?.kind !== 'ok') return [];
  const apps = Object.entries(read.data.apps).flatMap(([name, s]) =>
    s.installed && s.removedAt === undefined ? [{ name, installed: s.installed, symlink: s.symlink }] : [],
  );
  return Promise.all(
    apps
      .sort((a, b) => compareNames(a.name, b.name))
      .map(async (a) => ({
        name: a.name,
        version: a.installed.version,
        path: a.installed.file,
        file_present: await stat(a.installed.file).then(
          () => true,
          () => false,
        ),
        symlink: a.symlink ?? null,
      })),
  );
}

/** The human lines under a user's table: the system's apps, marked as such. */
export function systemAppsText(apps: readonly SystemApp[], bold: (s: string) => string): string {
  const rows = [
    ['NAME', 'VERSION', 'FILE'].map(bold),
    ...apps.map((a) => [
      termText(a.name),
      termText(a.version),
      `${termPath(a.path)}${a.file_present ? '' : ' (missing)'}`,
    ]),
  ];
  return `system apps (installed for every user with --system; read-only here):\n${table(rows)}`;
}
