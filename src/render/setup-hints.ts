import { stat } from 'node:fs/promises';
import type { Paths } from '../config/paths.js';
import { UsageError } from '../core/errors.js';
import { shellCommand } from '../core/shell-quote.js';

// Commands that make or do not read a configuration directory. `schedule` manages the timer units
// named after the directory: removing those of a deleted directory must still work.
const WITHOUT_CONFIG_DIR = new Set([
  'init',
  'completion',
  'schema',
  'version',
  'doctor',
  'schedule',
  'appimage-keeper',
]);

/**
 * An explicit `--config-dir` that does not exist is a typo far more often than a wish for defaults:
 * stop with the path instead of reporting `0 updated` from an empty directory.
 */
export async function assertConfigDir(paths: Paths, explicit: boolean, command: string): Promise<void> {
  if (!explicit || WITHOUT_CONFIG_DIR.has(command)) return;
  const isDir = await stat(paths.configDir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (isDir) return;
  throw new UsageError('CONFIG_DIR_MISSING', `configuration directory ${paths.configDir} does not exist`, {
    hint: `check the path, or create it with: ${shellCommand(['appimage-keeper', '--config-dir', paths.configDir, 'init', '--global'])}`,
  });
}

/**
 * The ways to get a first app, easiest first: by name from a catalogue, the AppImages already on
 * disk, and last a recipe written by hand.
 */
export const FIRST_APP_WAYS =
  'add one by name with: appimage-keeper add NAME --install (find names with: appimage-keeper search WORD), ' +
  'take over AppImages you have with: appimage-keeper adopt --scan DIR, ' +
  'or write one: appimage-keeper init --app NAME --strategy forge';

/** What to do when there is no recipe at all: where they are looked for and how to add one. */
export function noRecipesHint(paths: Paths): string {
  return `no recipes in ${paths.appsDir}; ${FIRST_APP_WAYS}`;
}
