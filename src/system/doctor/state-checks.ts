import { readFile } from 'node:fs/promises';
import { getExec, getGroup, MAIN_GROUP, parseDesktopEntry } from '../../appimage/desktop-entry.js';
import type { Workspace } from '../../config/workspace.js';
import type { Context } from '../../context/context.js';
import type { KeeperEvent } from '../../core/events.js';
import { markOf } from '../../install/desktop-target.js';
import { StateStore } from '../../state/store.js';
import { hasInstall } from '../../state/has-install.js';
import type { AppState, RunRecord, StateData } from '../../state/types.js';
import { check, type DoctorCheck } from './types.js';
import { countOf } from '../../core/plural.js';
import { shellQuote } from '../../core/shell-quote.js';
import { pathExists } from '../../core/path-exists.js';
import { compareNames } from '../../core/compare-names.js';

/** Loads state without writing; a corrupt file is a failed check, not a moved file. */
async function loadState(ctx: Context): Promise<{ data: StateData | undefined; check: DoctorCheck }> {
  const warnings: KeeperEvent[] = [];
  const present = await pathExists(ctx.paths.stateFile);
  try {
    const store = await StateStore.load(ctx.paths.stateDir, ctx.now(), (e) => warnings.push(e), {
      readOnly: true,
    });
    const corrupt = warnings.find((w) => w.type === 'warning' && w.code === 'STATE_CORRUPT');
    if (corrupt && corrupt.type === 'warning') {
      return {
        data: undefined,
        check: check(
          'state',
          'fail',
          corrupt.message,
          `the next update moves it aside and re-checks every app; to keep it, restore a backup of ${ctx.paths.stateFile} first`,
        ),
      };
    }
    const data = store.snapshot();
    const n = Object.keys(data.apps).length;
    const cache = warnings.find((w) => w.type === 'warning' && w.code === 'CACHE_CORRUPT');
    if (cache && cache.type === 'warning') {
      return {
        data,
        check: check(
          'state',
          'warn',
          `${cache.message}; state itself is fine`,
          'the next run rebuilds the cache',
        ),
      };
    }
    return {
      data,
      check: check(
        'state',
        'ok',
        present
          ? `${ctx.paths.stateFile} is readable (${countOf(n, 'app')})`
          : 'no state yet: nothing installed',
      ),
    };
  } catch (err) {
    return {
      data: undefined,
      check: check(
        'state',
        'fail',
        `cannot read ${ctx.paths.stateFile}: ${(err as Error).message}`,
        'fix the permissions of the state directory',
      ),
    };
  }
}

/** The program a desktop entry launches: TryExec, else Exec after any `env NAME=value` words. */
async function launcherTarget(desktopFile: string): Promise<string | undefined> {
  const entry = parseDesktopEntry(await readFile(desktopFile, 'utf8'));
  const group = getGroup(entry, MAIN_GROUP);
  const tryExec = getExec(group, 'TryExec')?.[0];
  if (tryExec) return tryExec;
  const exec = getExec(group) ?? [];
  let i = exec[0] === 'env' ? 1 : 0;
  if (i === 1) while (i < exec.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(exec[i] ?? '')) i++;
  return exec[i];
}

async function installedProblems(apps: [string, AppState][]): Promise<{ fails: string[]; warns: string[] }> {
  const fails: string[] = [];
  const warns: string[] = [];
  for (const [name, s] of apps) {
    if (s.installed && !(await pathExists(s.installed.file)))
      fails.push(`${name}: ${s.installed.file} is missing`);
    if (s.previous && !(await pathExists(s.previous.file)))
      warns.push(`${name}: kept previous version ${s.previous.file} is missing (no rollback)`);
  }
  return { fails, warns };
}

async function integrationProblems(
  apps: [string, AppState][],
): Promise<{ fails: string[]; warns: string[]; count: number }> {
  const fails: string[] = [];
  const warns: string[] = [];
  let count = 0;
  for (const [name, s] of apps) {
    const integ = s.integration;
    if (!integ) continue;
    count++;
    const text = await readFile(integ.desktopFile, 'utf8').catch(() => undefined);
    if (text === undefined) {
      fails.push(`${name}: desktop entry ${integ.desktopFile} is missing`);
      continue;
    }
    const mark = markOf(text);
    if (mark !== name) {
      // Another app's entry (or the user's) at our recorded path: this app has no entry of its own.
      fails.push(
        `${name}: ${integ.desktopFile} belongs to ${mark === undefined ? 'someone else (no appimage-keeper mark)' : `app ${mark}`}`,
      );
      continue;
    }
    const target = await launcherTarget(integ.desktopFile).catch(() => undefined);
    if (!target) fails.push(`${name}: ${integ.desktopFile} has no Exec line`);
    else if (target.startsWith('/') && !(await pathExists(target)))
      fails.push(`${name}: ${integ.desktopFile} launches ${target}, which is missing`);
    for (const icon of integ.icons)
      if (!(await pathExists(icon))) warns.push(`${name}: icon ${icon} is missing`);
  }
  return { fails, warns, count };
}

async function symlinkProblems(apps: [string, AppState][]): Promise<{ fails: string[]; count: number }> {
  const fails: string[] = [];
  let count = 0;
  for (const [name, s] of apps) {
    if (!s.symlink) continue;
    count++;
    // stat follows the link: a dangling one fails like a missing one.
    if (!(await pathExists(s.symlink))) fails.push(`${name}: symlink ${s.symlink} is missing or dangling`);
  }
  return { fails, count };
}

function summarize(
  id: string,
  fails: string[],
  warns: string[],
  okMessage: string,
  hint: string,
): DoctorCheck {
  if (fails.length) return check(id, 'fail', [...fails, ...warns].join('; '), hint);
  if (warns.length) return check(id, 'warn', warns.join('; '), hint);
  return check(id, 'ok', okMessage);
}

function appsOf(fails: string[]): string {
  return [...new Set(fails.map((f) => f.split(':')[0] ?? ''))].join(' ');
}

/** State readable, orphans, installed files, desktop entries, symlinks, holds, last run. */
export async function stateChecks(ctx: Context, ws: Workspace | undefined): Promise<DoctorCheck[]> {
  const { data, check: stateCheck } = await loadState(ctx);
  const checks = [stateCheck];
  const apps = Object.entries(data?.apps ?? {}).sort(([a], [b]) => compareNames(a, b));

  if (ws) {
    const known = new Set(ws.apps.map((a) => a.name));
    // The same rule as `remove --orphans`: an entry with nothing installed (removed, or only
    // checked) is no orphan without its recipe, only a stale mark that command forgets.
    const orphans = apps.filter(([n, s]) => !known.has(n) && hasInstall(s)).map(([n]) => n);
    checks.push(
      orphans.length
        ? check(
            'orphans',
            'warn',
            `installed apps without a recipe: ${orphans.join(', ')}`,
            'remove them with: appimage-keeper remove --orphans (or restore their recipes)',
          )
        : check('orphans', 'ok', 'every installed app has a recipe'),
    );
  } else {
    checks.push(
      check(
        'orphans',
        'warn',
        'not checked: the configuration is invalid',
        'fix config.yml or secrets.yml first',
      ),
    );
  }

  const installed = await installedProblems(apps);
  const nInstalled = apps.filter(([, s]) => s.installed).length;
  checks.push(
    summarize(
      'installed-files',
      installed.fails,
      installed.warns,
      `${nInstalled} installed file${nInstalled === 1 ? '' : 's'} present`,
      `reinstall with: appimage-keeper update ${appsOf(installed.fails) || appsOf(installed.warns)} --force`,
    ),
  );
  const integ = await integrationProblems(apps);
  checks.push(
    summarize(
      'desktop-entries',
      integ.fails,
      integ.warns,
      `${countOf(integ.count, 'desktop entry', 'desktop entries')} ${integ.count === 1 ? 'points at an existing file' : 'point at existing files'}`,
      `rebuild with: appimage-keeper update ${appsOf(integ.fails) || appsOf(integ.warns)} --force`,
    ),
  );
  const links = await symlinkProblems(apps);
  checks.push(
    summarize(
      'symlinks',
      links.fails,
      [],
      `${countOf(links.count, 'symlink')} ${links.count === 1 ? 'resolves' : 'resolve'}`,
      `recreate with: appimage-keeper update ${appsOf(links.fails)} --force`,
    ),
  );

  const held = apps.filter(([, s]) => s.hold).map(([n]) => n);
  checks.push(
    held.length
      ? check(
          'holds',
          'warn',
          `held after a rollback (not updated): ${held.join(', ')}`,
          `resume updates with: appimage-keeper unhold ${held.join(' ')}`,
        )
      : check('holds', 'ok', 'no app is held'),
  );

  const last = data?.lastRun;
  const erroring = apps.filter(([, s]) => s.lastError);
  if (!last) checks.push(check('last-run', 'ok', 'no update recorded yet'));
  else if (last.failed.length || erroring.length) {
    checks.push(lastRunCheck(last, erroring));
  } else {
    checks.push(check('last-run', 'ok', `last ${last.command} at ${last.finishedAt} had no failures`));
  }
  return checks;
}

/** At most this many failing apps are spelled out with their reasons; the rest are counted. */
const REASONS_SHOWN = 5;

/**
 * The last run's failures with each app's own reason (its last error), and the command that tries
 * them again: the fix a user can act on, not a pointer to another command's output.
 */
function lastRunCheck(last: RunRecord, erroring: [string, AppState][]): DoctorCheck {
  const reasons = erroring.map(
    ([n, s]) => `${n} (${s.lastError?.code ?? ''}): ${s.lastError?.message ?? ''}`,
  );
  const shown = reasons.slice(0, REASONS_SHOWN);
  const more = reasons.length - shown.length;
  const parts = [
    ...(last.failed.length ? [`failed ${last.failed.join(', ')}`] : []),
    ...(shown.length ? [`last errors: ${shown.join('; ')}${more > 0 ? ` and ${more} more` : ''}`] : []),
  ];
  const names = [...new Set([...last.failed, ...erroring.map(([n]) => n)])];
  return check(
    'last-run',
    'warn',
    `last ${last.command} at ${last.finishedAt}: ${parts.join('; ')}`,
    `fix what each reason names, then try again: appimage-keeper update ${names.map(shellQuote).join(' ')}`,
  );
}
