import type { Context } from '../context/context.js';
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
  const { addByName } = await import('../app/add/add-by-name.js');
  const { isCatalogueName } = await import('../app/add/catalogue-name.js');
  const dryRun = flags.dryRun === true;
  const pick = assetPrompt(out, stdin, out.json);
  const opts = { name: flags.name, dryRun, assetMatch: flags.assetMatch, assetRegex: flags.assetRegex, pick };
  const result = await runLocked(ctx, out, 'add', [], (run, _entries, ws) =>
    isCatalogueName(url) ? addByName(url, opts, ws, run) : addFromUrl(url, opts, ws, run),
  );
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
  const origin =
    'catalogue' in result ? (result.catalogue as { catalogue: string; entry: string }) : undefined;
  if (origin) lines.push(c.dim(`from ${termText(origin.catalogue)} entry ${termText(origin.entry)}`));
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
  summary: 'write a recipe for an app by name (from the catalogues), repository URL or download URL',
  arguments: [
    {
      name: '<name-or-url>',
      description:
        'an app name looked up in the catalogues (see search; quoted when it has spaces, after -- when it starts with -), a repository URL on the hub, the lab or Gitea/Forgejo, owner/repo, git@host:owner/repo.git, or a download URL',
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
    ['appimage-keeper add obsidian --install', 'by name, from the catalogues; then install it'],
    [
      'appimage-keeper add https://github.com/obsidianmd/obsidian-releases',
      'write a recipe for a repository',
    ],
    [
      'appimage-keeper add owner/repo --asset-match "*fedora*" --install',
      'one of several AppImages, then install it',
    ],
  ],
  handler: ({ ctx, output, args: [url], flags, setSink, stdin }) =>
    addCommand(ctx(), output(), url, flags, setSink, stdin()),
});
