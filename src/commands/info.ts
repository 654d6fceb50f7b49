import type { Context } from '../context/context.js';
import type { Output } from '../render/output.js';
import { errorJson, messageText } from '../render/render-error.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import type { AppInfo } from '../app/info.js';
import type { CatalogueOriginInfo } from '../app/catalogue-origin.js';
import { termPath, termText } from '../render/terminal-text.js';
import { shellQuote } from '../core/shell-quote.js';

/** State entries can hold long maps (release assets): the human view stops after this many lines. */
const MAX_STATE_LINES = 200;

/** `info APP`: recipe, effective settings with their source, state and rate-limit windows; no lock. */
async function infoCommand(ctx: Context, out: Output, name: string): Promise<CommandResult> {
  const { loadWorkspace } = await import('../config/workspace.js');
  const { StateStore } = await import('../state/store.js');
  const { appInfo } = await import('../app/info.js');
  const { assertKnownApps } = await import('./known-apps.js');
  const ws = await loadWorkspace(ctx.paths, ctx.env);
  for (const w of ws.warnings) out.warn(w);
  const store = await StateStore.load(ctx.paths.stateDir, ctx.now(), ctx.emit, { readOnly: true });
  assertKnownApps([name], ws, store);
  const info = await appInfo(ws, store, name, ctx.now());
  const { catalogueOrigin } = await import('../app/catalogue-origin.js');
  const origin = info.recipe ? await catalogueOrigin(ctx, info.recipe.file) : undefined;
  const { c } = out;
  if (!out.verbose) {
    const { infoSummaryLines } = await import('../render/info-summary.js');
    const more = `the full record (settings and their source, state, rate limits): appimage-keeper -v info ${shellQuote(info.name)}, or --json`;
    return infoResult(
      info,
      origin,
      [...infoSummaryLines(info, c), c.dim(`  ${termText(more, 400)}`)].join('\n'),
    );
  }
  const lines: string[] = [c.bold(termText(info.name))];
  // Labels can come from outside too (release asset keys in state): escaped like the values.
  const row = (label: string, value: string): string => `  ${termText(label, 80).padEnd(26)} ${value}`;

  if (!info.recipe) lines.push(row('recipe', c.yellow('none (only in state: its recipe is gone)')));
  else {
    lines.push(
      row('recipe', `${termPath(info.recipe.file)} (${info.recipe.valid ? 'valid' : c.red('invalid')})`),
    );
    const err = info.recipe.error;
    if (err) lines.push(`      ${messageText(err, '      ')}`);
  }
  if (origin) {
    // Catalogue text is a third party's: escaped like every other outside value.
    lines.push(row('catalogue', `${termText(origin.catalogue)} entry ${termText(origin.entry)}`));
    if (origin.description) lines.push(row('description', termText(origin.description, 300)));
    if (origin.homepage) lines.push(row('homepage', termText(origin.homepage, 300)));
    if (origin.license) lines.push(row('license', termText(origin.license, 100)));
  }
  if (info.settings.length) {
    lines.push('', c.bold('settings') + c.dim('  (value, then where it came from)'));
    for (const s of info.settings) {
      for (const [key, value] of flatten(s.key, s.value))
        lines.push(`${row(key, termText(value, 200))}  ${c.dim(s.source)}`);
    }
    if (info.token) lines.push(`${row('hub token', 'set')}  ${c.dim(info.token.source)}`);
  }
  lines.push('', c.bold('state'));
  if (!info.state) lines.push('  nothing recorded yet (never checked or installed)');
  else {
    const flat = flatten('', info.state);
    for (const [key, value] of flat.slice(0, MAX_STATE_LINES)) lines.push(row(key, termText(value, 200)));
    if (flat.length > MAX_STATE_LINES)
      lines.push(c.dim(`  … ${flat.length - MAX_STATE_LINES} more (see --json)`));
  }
  lines.push('', c.bold('rate limits'));
  if (info.rateLimits.length === 0) lines.push('  none open');
  for (const w of info.rateLimits) lines.push(row(w.key, `until ${w.until}: ${termText(w.message, 300)}`));

  return infoResult(info, origin, lines.join('\n'));
}

// A name as one word a shell reads back unchanged.
// The JSON is the full record whatever the human view shows.
function infoResult(info: AppInfo, origin: CatalogueOriginInfo | undefined, human: string): CommandResult {
  return {
    exitCode: 0,
    json: {
      command: 'info',
      app: {
        name: info.name,
        recipe: info.recipe
          ? {
              file: info.recipe.file,
              valid: info.recipe.valid,
              error: info.recipe.error ? errorJson(info.recipe.error) : null,
            }
          : null,
        catalogue: origin ?? null,
        settings: info.settings,
        token: info.token,
        state: info.state,
        last_check: info.state?.lastCheck ?? null,
        last_error: info.state?.lastError ?? null,
        rate_limits: info.rateLimits,
      },
    },
    human,
  };
}

// Nested values as dotted keys (`installed.version`), lists of plain values on one line.
function flatten(prefix: string, value: unknown, depth = 0): [string, string][] {
  if (value === null || value === undefined) return [[prefix, '-']];
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object'))
      return [[prefix, value.length ? value.map(String).join(', ') : '-']];
    return value.flatMap((v, i) => flatten(`${prefix}.${i}`, v, depth + 1));
  }
  if (typeof value === 'object' && depth < 6) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return [[prefix, '-']];
    return entries.flatMap(([k, v]) => flatten(prefix ? `${prefix}.${k}` : k, v, depth + 1));
  }
  // Numbers and booleans print as JSON does; objects past the depth bound as JSON.
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '-');
  return [[prefix, text]];
}

/** `info APP`: everything known about one app. */
export const info = defineCommand<[string], Record<string, never>>({
  name: 'info',
  summary:
    'one app in ten lines: source, versions, file, desktop entry, last check and error, hold (-v: everything)',
  arguments: [{ name: '<app>', description: 'app to show' }],
  flags: [],
  examples: [
    ['appimage-keeper info obsidian', 'source, installed and latest version, file, last check and error'],
    ['appimage-keeper -v info obsidian', 'the full record: settings (and where each came from), state'],
    ['appimage-keeper --json info obsidian', 'the full record as one JSON document'],
  ],
  handler: ({ ctx, output, args: [app] }) => infoCommand(ctx(), output(), app),
});
