import type { Context } from '../context/context.js';
import { ConfigError } from '../core/errors.js';
import type { Output } from '../render/output.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import { noRecipesHint } from '../render/setup-hints.js';
import { errorJson, messageText } from '../render/render-error.js';
import { termMessage, termPath, termText } from '../render/terminal-text.js';

/** `validate [APP...]`: parses config, secrets and recipes; no network, no writes. */
async function validateCommand(ctx: Context, out: Output, names: string[]): Promise<CommandResult> {
  const { loadWorkspace, selectApps } = await import('../config/workspace.js');
  const ws = await loadWorkspace(ctx.paths, ctx.env);
  const apps = selectApps(ws, names);
  for (const w of ws.warnings) out.warn(w);
  const failed = apps.filter((a) => !a.ok);
  const lines: string[] = [
    `${out.c.green('ok')}  ${termPath(ws.config.file)}${ws.config.exists ? '' : ' (not present: defaults)'}`,
  ];
  if (ws.secrets.exists) lines.push(`${out.c.green('ok')}  ${termPath(ws.secrets.file)}`);
  for (const app of apps) {
    const name = termText(app.name);
    if (app.ok)
      lines.push(`${out.c.green('ok')}  ${name} (${app.settings.strategy.strategy})  ${termPath(app.file)}`);
    else {
      const detail =
        app.error instanceof ConfigError
          ? messageText(app.error, '      ')
          : `${termPath(app.file)}: ${messageText(app.error, '      ')}`;
      lines.push(`${out.c.red('bad')} ${name}: ${detail}`);
      if (app.error.hint) lines.push(`      hint: ${termMessage(app.error.hint)}`);
    }
  }
  // Nothing below apps/ is passed over silently.
  for (const s of ws.skipped)
    lines.push(`${out.c.yellow('skip')} ${termPath(s.path)}: ${termMessage(s.reason)}`);
  if (apps.length === 0) lines.push(termMessage(noRecipesHint(ws.paths)));
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
      skipped: ws.skipped,
    },
    human: lines.join('\n'),
  };
}

/** `validate`: config, secrets and recipes checked offline. */
export const validate = defineCommand<[string[]], Record<string, never>>({
  name: 'validate',
  summary: 'check config.yml, secrets.yml and recipes (no network)',
  arguments: [{ name: '[apps...]', description: 'apps to validate (default: all)' }],
  flags: [],
  examples: [
    ['appimage-keeper validate', 'check config.yml, secrets.yml and every recipe'],
    ['appimage-keeper validate obsidian', 'check one recipe'],
    ['appimage-keeper --json validate', 'the same as one JSON document'],
  ],
  handler: ({ ctx, output, args: [apps] }) => validateCommand(ctx(), output(), apps),
});
