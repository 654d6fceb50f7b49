import type { Context } from '../core/context.js';
import type { EventSink } from '../core/events.js';
import type { Output } from '../render/output.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import { termMessage, termPath, termText } from '../render/terminal-text.js';
import { runLocked } from './engine-run.js';
import { updateCommand } from './update.js';
import { assetPrompt } from './add-prompt.js';

/** Flags of `add`. */
interface AddFlags {
  name?: string;
  install?: boolean;
  dryRun?: boolean;
  assetMatch?: string;
  assetRegex?: string;
}

/** `add URL`: write (and validate, and print) a recipe for a repository or download URL. */
async function addCommand(
  ctx: Context,
  out: Output,
  url: string,
  flags: AddFlags,
  setSink: (sink: EventSink) => void,
  stdin?: NodeJS.ReadableStream,
): Promise<CommandResult> {
  const { addFromUrl } = await import('../app/add/add.js');
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

/** `add URL`: a recipe from a repository or download URL. */
export const add = defineCommand<[string], AddFlags>({
  name: 'add',
  summary: 'write a recipe from a repository URL (forge) or a download URL (direct)',
  arguments: [
    {
      name: '<url>',
      description:
        'repository URL on the hub, the lab or Gitea/Forgejo, owner/repo, git@host:owner/repo.git, or a download URL',
    },
  ],
  flags: [
    { flags: '--name <name>', description: 'app name (default: from the release asset or file name)' },
    {
      flags: '--asset-match <glob>',
      description: 'which of several AppImages in the release to follow (glob)',
    },
    {
      flags: '--asset-regex <re>',
      description: 'which of several AppImages in the release to follow (regex)',
    },
    { flags: '--install', description: 'then install the app (as `update NAME`)' },
    { flags: '--dry-run', description: 'print the recipe only; write nothing' },
  ],
  examples: [
    [
      'appimage-keeper add https://github.com/obsidianmd/obsidian-releases',
      'write a recipe for a repository',
    ],
    ['appimage-keeper add https://example.org/tool.AppImage --name tool', 'a direct-download recipe'],
    [
      'appimage-keeper add owner/repo --asset-match "*fedora*" --install',
      'one of several AppImages, then install it',
    ],
  ],
  handler: ({ ctx, output, args: [url], flags, setSink, stdin }) =>
    addCommand(ctx(), output(), url, flags, setSink, stdin()),
});
