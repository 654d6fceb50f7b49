import { access, constants } from 'node:fs/promises';
import { delimiter, resolve } from 'node:path';
import type { AppSettings, GlobalSettings } from '../../config/types.js';
import type { Workspace } from '../../config/workspace.js';
import type { Context } from '../../context/context.js';
import { sourceFor, type ProgramNeed } from '../../sources/index.js';
import { findProgram } from '../find-program.js';
import { appSettingsOrGlobal } from './dir-checks.js';
import { check, type DoctorCheck } from './types.js';
import { countOf } from '../../core/plural.js';
import { shellQuote } from '../../core/shell-quote.js';

/** The program the app's source runs; none for an app whose repository URL no forge can use. */
function runsOf(settings: AppSettings): ProgramNeed | undefined {
  try {
    return sourceFor(settings).runs;
  } catch {
    return undefined;
  }
}

function trimDir(dir: string): string {
  return resolve(dir).replace(/\/+$/, '') || '/';
}

/** Script recipes have their script and `bash`; symlink_dir is on PATH; update-desktop-database exists. */
export async function toolChecks(
  ctx: Context,
  ws: Workspace | undefined,
  global: GlobalSettings,
): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const scripts = (ws?.apps ?? []).flatMap((a) => {
    const runs = a.ok ? runsOf(a.settings) : undefined;
    return runs?.program === 'bash' ? [{ name: a.name, path: runs.file }] : [];
  });
  if (scripts.length === 0) {
    checks.push(check('scripts', 'ok', 'no script recipes'));
  } else {
    const bash = await findProgram('bash', ctx.env);
    const missing: string[] = [];
    for (const s of scripts) {
      const readable = await access(s.path, constants.R_OK).then(
        () => true,
        () => false,
      );
      if (!readable) missing.push(`${s.name}: ${s.path}`);
    }
    if (!bash) {
      checks.push(
        check(
          'scripts',
          'fail',
          `bash is not on PATH; ${countOf(scripts.length, 'script recipe')} need${scripts.length === 1 ? 's' : ''} it`,
          'install bash',
        ),
      );
    } else if (missing.length) {
      checks.push(
        check(
          'scripts',
          'fail',
          `resolver script missing or unreadable: ${missing.join('; ')}`,
          'fix script_path in the recipe, or restore the script next to it',
        ),
      );
    } else {
      checks.push(
        check('scripts', 'ok', `${countOf(scripts.length, 'resolver script')} present; bash at ${bash}`),
      );
    }
  }

  const settings = appSettingsOrGlobal(ws, global);
  const linkDirs = [...new Set(settings.filter((s) => s.create_symlinks).map((s) => trimDir(s.symlink_dir)))];
  if (linkDirs.length === 0) {
    checks.push(check('symlink-path', 'ok', 'symlinks are off'));
  } else {
    const onPath = new Set((ctx.env.PATH ?? '').split(delimiter).filter(Boolean).map(trimDir));
    const off = linkDirs.filter((d) => !onPath.has(d));
    checks.push(
      off.length
        ? check(
            'symlink-path',
            'fail',
            `symlink_dir not on PATH: ${off.join(', ')}`,
            `add to your shell profile: export PATH=${shellQuote(off[0] ?? '')}:"$PATH"`,
          )
        : check('symlink-path', 'ok', `symlink_dir on PATH: ${linkDirs.join(', ')}`),
    );
  }

  if (!settings.some((s) => s.manage_desktop_files)) {
    checks.push(check('desktop-database', 'ok', 'desktop integration is off'));
  } else {
    const udd = await findProgram('update-desktop-database', ctx.env);
    checks.push(
      udd
        ? check('desktop-database', 'ok', `update-desktop-database at ${udd}`)
        : check(
            'desktop-database',
            'warn',
            'update-desktop-database not found: MIME associations of new apps may not show up until the next login',
            'install desktop-file-utils',
          ),
    );
  }
  return checks;
}
