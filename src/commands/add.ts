import type { Context } from '../core/context.js';
import type { EventSink } from '../core/events.js';
import { addFromUrl } from '../app/add/add.js';
import type { Output } from '../render/output.js';
import type { CommandResult } from '../cli/result.js';
import { termMessage, termPath, termText } from '../render/terminal-text.js';
import { runLocked } from './engine-run.js';
import { updateCommand } from './update.js';
import { assetPrompt } from './add-prompt.js';

/** Flags of `add`. */
export interface AddFlags {
  name?: string;
  install?: boolean;
  dryRun?: boolean;
  assetMatch?: string;
  assetRegex?: string;
}

/** `add URL`: write (and validate, and print) a recipe for a repository or download URL. */
export async function addCommand(
  ctx: Context,
  out: Output,
  url: string,
  flags: AddFlags,
  setSink: (sink: EventSink) => void,
  stdin?: NodeJS.ReadableStream,
): Promise<CommandResult> {
  const dryRun = flags.dryRun === true;
  const pick = assetPrompt(out, stdin, out.json);
  const opts = { name: flags.name, dryRun, assetMatch: flags.assetMatch, assetRegex: flags.assetRegex, pick };
  const result = await runLocked(ctx, out, 'add', [], (run, _entries, ws) => addFromUrl(url, opts, ws, run));
  const { c } = out;
  // The recipe text holds forge asset names and the URL: escape it line by line.
  const lines = [
    dryRun
      ? c.dim(`# dry run: recipe for ${termText(result.name)} (not written)`)
      : `${c.green('wrote')} ${termPath(result.file ?? '')}`,
    ...result.text
      .trimEnd()
      .split('\n')
      .map((l) => termText(l, 2000)),
  ];
  if (result.release)
    lines.push(
      c.dim(`selects ${termText(result.release.asset)} of release ${termText(result.release.tag)} today`),
    );
  for (const n of result.notes) lines.push(c.dim(`note: ${termMessage(n)}`));
  const json: Record<string, unknown> = { command: 'add', ...result };
  if (!flags.install || dryRun) return { exitCode: 0, json, human: lines.join('\n') };
  const update = await updateCommand(ctx, out, [result.name], {}, setSink);
  return {
    exitCode: update.exitCode,
    json: { ...json, update: update.json },
    human: [...lines, update.human].filter((s) => s !== '').join('\n'),
  };
}
