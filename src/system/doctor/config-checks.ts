import { loadConfig, loadSecrets } from '../../config/load-config.js';
import { effectiveGlobal } from '../../config/settings.js';
import type { GlobalSettings } from '../../config/types.js';
import { loadWorkspace, type Workspace } from '../../config/workspace.js';
import type { Context } from '../../context/context.js';
import { toKeeperError } from '../../core/errors.js';
import { check, type DoctorCheck } from './types.js';
import { countOf } from '../../core/plural.js';
import { shellCommand } from '../../core/shell-quote.js';

/** What the config checks learned, for the checks that follow. */
export interface ConfigFindings {
  checks: DoctorCheck[];
  /** Undefined when config.yml or secrets.yml is broken. */
  ws: Workspace | undefined;
  /** The workspace's globals, or the defaults when config.yml is broken. */
  global: GlobalSettings;
}

/** The first problem of an error message ("N problems:" lists them on the following lines). */
function firstLine(text: string): string {
  const lines = text.split('\n');
  const first = lines[0] ?? text;
  return /^\d+ problems:$/.test(first) ? `${(lines[1] ?? '').trim()} (and more)` : first;
}

/** config.yml, secrets.yml and every recipe, as `validate` sees them. */
export async function configChecks(ctx: Context): Promise<ConfigFindings> {
  const checks: DoctorCheck[] = [];
  const { paths, env } = ctx;
  let configOk = true;
  try {
    const config = await loadConfig(paths);
    checks.push(
      check(
        'config',
        'ok',
        config.exists ? `${config.file} is valid` : `${config.file} does not exist: every default applies`,
        config.exists ? undefined : 'write a commented starter with: appimage-keeper init --global',
      ),
    );
  } catch (err) {
    configOk = false;
    const e = toKeeperError(err);
    checks.push(
      check(
        'config',
        'fail',
        e.message,
        e.hint ?? 'fix the file; `appimage-keeper validate` shows every problem',
      ),
    );
  }
  let secretsOk = true;
  try {
    const secrets = await loadSecrets(paths);
    if (secrets.warnings.length)
      checks.push(
        check('secrets', 'warn', secrets.warnings.join('; '), shellCommand(['chmod', '600'], [secrets.file])),
      );
    else checks.push(check('secrets', 'ok', secrets.exists ? `${secrets.file} is valid` : 'no secrets.yml'));
  } catch (err) {
    secretsOk = false;
    const e = toKeeperError(err);
    checks.push(check('secrets', 'fail', e.message, e.hint ?? `fix ${paths.secretsFile}`));
  }
  if (!configOk || !secretsOk) {
    checks.push(
      check('recipes', 'warn', 'not checked: config.yml or secrets.yml is invalid', 'fix that file first'),
    );
    return { checks, ws: undefined, global: effectiveGlobal({}, paths, env) };
  }
  const ws = await loadWorkspace(paths, env);
  const bad = ws.apps.filter((a) => !a.ok);
  if (ws.apps.length === 0) {
    checks.push(
      check(
        'recipes',
        'warn',
        `no recipes in ${paths.appsDir}`,
        'create one with: appimage-keeper init --app NAME --strategy forge',
      ),
    );
  } else if (bad.length) {
    const details = bad.map((a) => (a.ok ? '' : `${a.name}: ${firstLine(a.error.message)}`)).join('; ');
    checks.push(
      check(
        'recipes',
        'fail',
        `${bad.length} of ${ws.apps.length} recipes invalid: ${details}`,
        '`appimage-keeper validate` shows every problem with file:line:col',
      ),
    );
  } else {
    checks.push(check('recipes', 'ok', `${countOf(ws.apps.length, 'recipe')} valid`));
  }
  if (ws.skipped.length) {
    checks.push(
      check(
        'recipe-files',
        'warn',
        `${ws.skipped.length} entr${ws.skipped.length === 1 ? 'y' : 'ies'} below ${paths.appsDir} not read: ${ws.skipped
          .map((s) => `${s.path} (${s.reason})`)
          .join('; ')}`,
        'fix or remove them; every *.yml/*.yaml below apps/ is read as a recipe',
      ),
    );
  }
  // loadWorkspace lists the secrets.yml warnings first; the rest are about where the token lives.
  const tokenWarnings = ws.warnings.slice(ws.secrets.warnings.length);
  if (typeof ws.config.values.hub_token === 'string' && tokenWarnings.length === 0) {
    tokenWarnings.push(`hub_token is set in ${ws.config.file}`);
  }
  if (tokenWarnings.length) {
    checks.push(
      check(
        'token-storage',
        'warn',
        tokenWarnings.join('; '),
        `move hub_token to ${paths.secretsFile} (chmod 600) or the HUB_TOKEN variable`,
      ),
    );
  }
  return { checks, ws, global: ws.global };
}
