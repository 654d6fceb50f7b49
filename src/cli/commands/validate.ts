import { loadWorkspace, selectApps } from '../../config/workspace.js';
import type { Context } from '../../core/context.js';
import { ConfigError } from '../../core/errors.js';
import type { Output } from '../output.js';
import type { CommandResult } from '../result.js';
import { errorJson } from '../render-error.js';

/** `validate [APP...]`: parses config, secrets and recipes; no network, no writes. */
export async function validateCommand(ctx: Context, out: Output, names: string[]): Promise<CommandResult> {
  const ws = await loadWorkspace(ctx.paths, ctx.env);
  const apps = selectApps(ws, names);
  for (const w of ws.warnings) out.warn(w);
  const failed = apps.filter((a) => !a.ok);
  const lines: string[] = [
    `${out.c.green('ok')}  ${ws.config.file}${ws.config.exists ? '' : ' (not present: defaults)'}`,
  ];
  if (ws.secrets.exists) lines.push(`${out.c.green('ok')}  ${ws.secrets.file}`);
  for (const app of apps) {
    if (app.ok)
      lines.push(`${out.c.green('ok')}  ${app.name} (${app.settings.strategy.strategy})  ${app.file}`);
    else {
      const detail =
        app.error instanceof ConfigError
          ? app.error.message.replace(/\n/g, '\n      ')
          : `${app.file}: ${app.error.message}`;
      lines.push(`${out.c.red('bad')} ${app.name}: ${detail}`);
      if (app.error.hint) lines.push(`      hint: ${app.error.hint}`);
    }
  }
  if (apps.length === 0) lines.push(`no recipes in ${ws.paths.appsDir}`);
  lines.push(`${apps.length - failed.length} valid, ${failed.length} invalid`);
  return {
    exitCode: failed.length ? 1 : 0,
    json: {
      command: 'validate',
      ok: failed.length === 0,
      config: { file: ws.config.file, exists: ws.config.exists },
      secrets: { file: ws.secrets.file, exists: ws.secrets.exists },
      apps: apps.map((a) =>
        a.ok
          ? { name: a.name, file: a.file, ok: true, strategy: a.settings.strategy.strategy }
          : { name: a.name, file: a.file, ok: false, error: errorJson(a.error) },
      ),
      warnings: ws.warnings,
    },
    human: lines.join('\n'),
  };
}
