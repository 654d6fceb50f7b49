import { access, constants, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { GlobalSettings } from '../../config/types.js';
import type { Workspace } from '../../config/workspace.js';
import type { Context } from '../../context/context.js';
import { foreignFilesCheck } from './foreign-checks.js';
import { check, worst, type CheckStatus, type DoctorCheck } from './types.js';
import { shellCommand } from '../../core/shell-quote.js';

async function can(path: string, mode: number): Promise<boolean> {
  return access(path, mode).then(
    () => true,
    () => false,
  );
}

/** Whether a directory the tool writes to is usable: present and writable, or creatable. */
export async function probeWritableDir(dir: string): Promise<{ status: CheckStatus; message: string }> {
  const st = await stat(dir).catch(() => undefined);
  if (st) {
    if (!st.isDirectory()) return { status: 'fail', message: `${dir} exists but is not a directory` };
    if (await can(dir, constants.W_OK | constants.X_OK))
      return { status: 'ok', message: `${dir} is writable` };
    return { status: 'fail', message: `${dir} is not writable` };
  }
  let parent = dirname(dir);
  while (parent !== dirname(parent) && !(await stat(parent).catch(() => undefined))) parent = dirname(parent);
  if (await can(parent, constants.W_OK | constants.X_OK))
    return { status: 'ok', message: `${dir} does not exist yet; it will be created` };
  return { status: 'fail', message: `${dir} does not exist and ${parent} is not writable` };
}

async function dirCheck(
  id: string,
  role: string,
  dirs: readonly string[],
  hint: string,
): Promise<DoctorCheck> {
  const probes = await Promise.all(dirs.map(probeWritableDir));
  const status = worst(probes.map((p) => p.status));
  const shown = status === 'ok' ? probes : probes.filter((p) => p.status !== 'ok');
  return check(
    id,
    status,
    `${role}: ${shown.map((p) => p.message).join('; ')}`,
    status === 'ok' ? undefined : hint,
  );
}

/** Settings of every usable recipe, or the globals when there is none. */
export function appSettingsOrGlobal(ws: Workspace | undefined, global: GlobalSettings): GlobalSettings[] {
  const apps = ws?.apps.flatMap((a) => (a.ok ? [a.settings] : [])) ?? [];
  return apps.length ? apps : [global];
}

/**
 * The config dir is readable; storage, state, symlink and desktop-entry directories are writable;
 * files kept aside as `.foreign-` in a storage dir are listed.
 */
export async function dirChecks(
  ctx: Context,
  ws: Workspace | undefined,
  global: GlobalSettings,
): Promise<DoctorCheck[]> {
  const { paths } = ctx;
  const settings = appSettingsOrGlobal(ws, global);
  const checks: DoctorCheck[] = [];
  const configSt = await stat(paths.configDir).catch(() => undefined);
  if (!configSt) {
    checks.push(
      check(
        'config-dir',
        'warn',
        `${paths.configDir} does not exist`,
        'create it with: appimage-keeper init --global',
      ),
    );
  } else if (!configSt.isDirectory() || !(await can(paths.configDir, constants.R_OK | constants.X_OK))) {
    checks.push(
      check(
        'config-dir',
        'fail',
        `${paths.configDir} is not a readable directory`,
        `fix its permissions: ${shellCommand(['chmod', 'u+rx'], [paths.configDir])}`,
      ),
    );
  } else {
    checks.push(check('config-dir', 'ok', `${paths.configDir} is readable`));
  }
  const storage = [...new Set(settings.map((s) => s.storage_dir))];
  checks.push(
    await dirCheck(
      'storage-dir',
      'storage_dir',
      storage,
      'fix its permissions or set storage_dir to a folder you own',
    ),
  );
  checks.push(await foreignFilesCheck(storage));
  checks.push(
    await dirCheck(
      'state-dir',
      'state',
      [paths.stateDir],
      `fix the permissions of ${paths.stateDir} (or set XDG_STATE_HOME)`,
    ),
  );
  const symlinkDirs = [...new Set(settings.filter((s) => s.create_symlinks).map((s) => s.symlink_dir))];
  checks.push(
    symlinkDirs.length
      ? await dirCheck(
          'symlink-dir',
          'symlink_dir',
          symlinkDirs,
          'fix its permissions or set symlink_dir to a folder you own',
        )
      : check('symlink-dir', 'ok', 'symlinks are off'),
  );
  checks.push(
    settings.some((s) => s.manage_desktop_files)
      ? await dirCheck(
          'desktop-dirs',
          'desktop entries and icons',
          [paths.applicationsDir, paths.iconsDir],
          `fix the permissions under ${paths.dataHome} (or set XDG_DATA_HOME)`,
        )
      : check('desktop-dirs', 'ok', 'desktop integration is off'),
  );
  return checks;
}
