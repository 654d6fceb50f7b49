import type { Context } from '../context/context.js';
import type { Output } from '../render/output.js';
import type { CommandResult } from './result.js';
import type { SearchHit } from '../app/search.js';
import type { GlobalSettings } from '../config/types.js';
import { defineCommand } from './command-spec.js';
import { table } from '../render/table.js';
import { truncateEnd } from '../render/display-width.js';
import { termMessage, termText } from '../render/terminal-text.js';
import { shellQuote } from '../core/shell-quote.js';

/** Lines shown without -v; --json always has every hit. */
const MAX_HUMAN_HITS = 40;

interface SearchFlags {
  refresh?: boolean;
  names?: boolean;
}

// config.yml's settings and secrets.yml's warnings, as every command checks them; the recipes are
// not read: a search needs none of them (with 60 recipes they cost about a tenth of its time).
async function searchSettings(ctx: Context): Promise<{ global: GlobalSettings; warnings: string[] }> {
  const { loadConfig, loadSecrets } = await import('../config/load-config.js');
  const { effectiveGlobal } = await import('../config/settings.js');
  const { ValidatedCache } = await import('../config/validated-cache.js');
  const cache = ValidatedCache.open(ctx.paths.cacheDir);
  const config = await loadConfig(ctx.paths, cache);
  const secrets = await loadSecrets(ctx.paths, cache);
  await cache.save();
  const global = effectiveGlobal(config.values, ctx.paths, { ...ctx.env });
  // config.yml's proxy and ca_file hold for catalogue requests as for every other command's.
  const { applyNetworkFields } = await import('../http/proxy-settings.js');
  applyNetworkFields(ctx, global);
  return { global, warnings: secrets.warnings };
}

/** `search --names`: every cached catalogue name, one a line, for shell completion; no request. */
async function cachedNames(ctx: Context): Promise<CommandResult> {
  const { loadCatalogues } = await import('../app/catalogues.js');
  const { global } = await searchSettings(ctx);
  const { isPasteableName } = await import('../app/add/catalogue-name.js');
  const loaded = await loadCatalogues(ctx, global, { cacheOnly: true });
  // Names go into a shell's word list unquoted: only those that are one plain word `add` accepts.
  const names = [...new Set(loaded.flatMap((c) => c.entries.map((e) => e.name)))]
    .filter((n) => isPasteableName(n) && shellQuote(n) === n && !n.startsWith('-'))
    .sort();
  return { exitCode: 0, json: { command: 'search', names }, human: names.join('\n') };
}

function sourceOf(h: SearchHit): string {
  if (h.repository) return h.repository.replace(/^https:\/\/github\.com\//, '');
  if (h.download) return new URL(h.download).host;
  return h.catalogue === 'AM' ? '(AM script)' : '-';
}

/** `search TERM...`: catalogue entries, best match first, one line each. */
async function searchCommand(
  ctx: Context,
  out: Output,
  terms: string[],
  flags: SearchFlags,
): Promise<CommandResult> {
  if (flags.names === true) return cachedNames(ctx);
  const { searchCatalogues } = await import('../app/search.js');
  const { addCommandFor } = await import('../app/add/catalogue-name.js');
  const { global, warnings } = await searchSettings(ctx);
  for (const w of warnings) out.warn(w);
  const result = await searchCatalogues(ctx, global, terms, { refresh: flags.refresh === true });
  for (const n of result.notes) out.warn(n);
  const { c } = out;
  const width = Math.max(40, (out.columns ?? 80) - 4);
  const shown = result.hits.slice(0, MAX_HUMAN_HITS);
  // Every field comes from a catalogue: escaped, and the description cut to what fits.
  const rows = shown.map((h) => [
    termText(h.name, 60),
    termText(sourceOf(h), 80),
    `${h.catalogue}${h.repackaged ? ' (repackaged)' : ''}`,
    termText(h.description, 300),
  ]);
  const lines = table(rows)
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => truncateEnd(l, width));
  if (result.hits.length === 0) lines.push(`no app matches ${termText(result.terms.join(' '))}`);
  if (result.hits.length > shown.length)
    lines.push(c.dim(`… ${result.hits.length - shown.length} more (--json lists all; add terms to narrow)`));
  // Quoted for a shell, and by the repository when the name cannot be pasted as shown.
  const add = shown.map((h) => addCommandFor(h)).find((a) => a !== undefined);
  if (add !== undefined) lines.push(c.dim(`add one with: ${termText(add, 2000)}`));
  const hits = result.hits.map((h) => ({ ...h, add: addCommandFor(h) ?? null }));
  return {
    exitCode: result.hits.length === 0 ? 1 : 0,
    json: { command: 'search', ...result, hits, notes: result.notes.map((n) => termMessage(n)) },
    human: lines.join('\n'),
  };
}

/** `search TERM...`: find apps in the catalogues. */
export const search = defineCommand<[string[]], SearchFlags>({
  name: 'search',
  summary: 'find apps by name or description in the catalogues (AppImageHub, AM, your own)',
  arguments: [{ name: '[terms...]', description: 'words every result must contain' }],
  flags: [
    { flags: '--refresh', description: 'revalidate the cached catalogues now (else once a day)' },
    { flags: '--names', description: 'print every cached catalogue name (for shell completion; no request)' },
  ],
  examples: [
    ['appimage-keeper search obsidian', 'find an app'],
    ['appimage-keeper search --json pdf editor', 'every match, machine-readable'],
  ],
  handler: ({ ctx, output, args: [terms], flags }) => searchCommand(ctx(), output(), terms, flags),
});
