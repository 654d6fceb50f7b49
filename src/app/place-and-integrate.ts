/**
 * The one step that puts an AppImage at its name in storage_dir and points the app's symlink and
 * desktop entry at it, shared by `update` (and the recovery of an interrupted update), `rollback`
 * and `adopt`. How the file gets there differs per use case (an atomic rename of a verified
 * download, a two-way swap, a move or copy that never replaces anything) and is passed in; the
 * conditions around it are decided here, once.
 */
import { access, constants, lstat } from 'node:fs/promises';
import { makeManagedDir } from '../core/file-modes.js';
import { join } from 'node:path';
import type { AppSettings } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import { appFileName } from '../core/file-names.js';
import type { DesktopPlacement } from '../install/desktop-integration.js';
import { renderFileName } from '../install/naming.js';
import { keepForeignFile } from '../install/place.js';
import { placeSymlink } from '../install/symlink.js';
import type { AppState } from '../state/types.js';
import type { AppRun } from './app-run.js';
import { integrateStep } from './integrate-step.js';
import { integrateTarget } from './launch-refresh.js';

/** Where the file is after the step, and what points at it now. */
export interface Integrated {
  file: string;
  symlink: string | undefined;
  integration: AppState['integration'];
  /** Where the desktop entry went (undefined when integration is off or failed). */
  placement: DesktopPlacement | undefined;
  warnings: string[];
}

/** How one use case puts its file in place. */
export interface PlaceOptions {
  /** The version the file is: it names the target through `naming_format`. */
  version: string;
  /**
   * Whether a file at the target that state does not record is first kept under a second name
   * (update, rollback). Adopt passes false: its `move` refuses an existing target instead, since
   * adopting never displaces a file.
   */
  keepForeign: boolean;
  /**
   * Whether warnings are also emitted as events: `update` streams them while other apps run;
   * `rollback` and `adopt` report them once, in their result.
   */
  announce: boolean;
  /**
   * Puts the file at `target` (or leaves it where it is) and returns where it is now; `foreignKept`
   * is where a file found at the target was kept, when one was.
   */
  move: (target: string, foreignKept: string | undefined) => Promise<string>;
}

/** The path an app's file of `version` has in its storage_dir. */
export function targetPath(settings: AppSettings, version: string): string {
  return join(settings.storage_dir, renderFileName(settings.naming_format, settings.name, version));
}

/** Makes sure storage_dir exists and is writable (before spending bandwidth, or moving a file). */
export async function prepareStorage(dir: string): Promise<void> {
  try {
    await makeManagedDir(dir);
    await access(dir, constants.W_OK);
  } catch (err) {
    throw new KeeperError('STORAGE_NOT_WRITABLE', `storage_dir ${dir} is not writable`, {
      cause: err,
      hint: 'fix its permissions or set storage_dir to a folder you own',
    });
  }
}

/** Places the app's file with `opts.move`, then points its symlink and desktop entry at it. */
export async function placeAndIntegrate(app: AppRun, opts: PlaceOptions): Promise<Integrated> {
  const target = targetPath(app.settings, opts.version);
  const warnings: string[] = [];
  const kept = opts.keepForeign
    ? await keepForeignFile(target, app.state?.installed, app.ctx.now(), app.ctx.paths)
    : undefined;
  if (kept) {
    const message = `${target} was not installed by appimage-keeper; kept it as ${kept}`;
    warnings.push(message);
    if (opts.announce)
      app.ctx.emit({ type: 'warning', app: app.settings.name, code: 'FOREIGN_FILE_KEPT', message });
  }
  const file = await opts.move(target, kept);
  const linked = await linkAndIntegrate(app, file);
  return { ...linked, warnings: [...warnings, ...linked.warnings] };
}

/**
 * Whether the symlink is (re)pointed: always with `create_symlinks`; without it, only the link state
 * records as ours that is still a symlink at `<symlink_dir>/<name>`, so it never dangles at a
 * replaced version, while no link is created or recreated against the setting.
 */
async function linkWanted(app: AppRun): Promise<boolean> {
  const { settings, state } = app;
  if (settings.create_symlinks) return true;
  const recorded = state?.symlink;
  if (recorded === undefined || recorded !== join(settings.symlink_dir, appFileName(settings.name)))
    return false;
  return (await lstat(recorded).catch(() => undefined))?.isSymbolicLink() === true;
}

/**
 * Points the symlink and the desktop entry at a placed file. Failures become warnings: the
 * AppImage is in place either way, and the next run retries.
 */
export async function linkAndIntegrate(app: AppRun, file: string): Promise<Integrated> {
  const { settings, state } = app;
  const warnings: string[] = [];
  let symlink = state?.symlink;
  if (await linkWanted(app)) {
    try {
      symlink = await placeSymlink({
        dir: settings.symlink_dir,
        name: settings.name,
        target: file,
        storageDir: settings.storage_dir,
        ours: state?.symlink,
      });
    } catch (err) {
      warnings.push(err instanceof Error ? err.message : String(err));
    }
  }
  const integ = await integrateStep(settings, integrateTarget(app, file, symlink));
  warnings.push(...integ.warnings);
  return { file, symlink, integration: integ.record, placement: integ.placement, warnings };
}
