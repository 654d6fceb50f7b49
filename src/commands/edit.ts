import type { Context } from '../context/context.js';
import { KeeperError, UsageError } from '../core/errors.js';
import type { Output } from '../render/output.js';
import { errorJson, messageText } from '../render/render-error.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import { termMessage, termPath, termText } from '../render/terminal-text.js';

/** Where `edit` may ask whether to reopen the editor. */
interface EditIo {
  stdin?: NodeJS.ReadableStream | undefined;
}

/**
 * `edit APP`: opens the recipe in $VISUAL/$EDITOR, then validates it. On a terminal an invalid
 * recipe offers to reopen the editor; otherwise the problems are reported (exit 1).
 */
async function editCommand(ctx: Context, out: Output, name: string, io: EditIo): Promise<CommandResult> {
  const { assertKnownNames, loadWorkspace } = await import('../config/workspace.js');
  const { FALLBACK_EDITORS, editorCommand, openInEditor, snapshotFile } = await import('../app/editor.js');
  const { MAX_YAML_BYTES } = await import('../config/yaml-file.js');
  const ws = await loadWorkspace(ctx.paths, ctx.env);
  assertKnownNames(
    [name],
    ws.apps.map((a) => a.name),
    ws.paths.appsDir,
  );
  const file = ws.apps.find((a) => a.name === name)?.file ?? '';
  const editor = await editorCommand(ctx.env);
  if (!editor) {
    const tried =
      ctx.env.TERM === 'dumb' ? 'the terminal is dumb' : `no ${FALLBACK_EDITORS.join(' or ')} on PATH`;
    throw new UsageError('EDITOR_NOT_SET', `neither VISUAL nor EDITOR is set, and ${tried}`, {
      hint: `set one (e.g. EDITOR=nano), or edit ${file} directly and run: appimage-keeper validate`,
    });
  }
  const interactive = (io.stdin as { isTTY?: boolean } | undefined)?.isTTY === true;
  const before = await snapshotFile(file, ws.paths.appsDir, MAX_YAML_BYTES);
  for (let round = 1; ; round++) {
    const status = await openInEditor(editor, file, ctx.env);
    if (status !== 0) {
      throw new KeeperError(
        'EDITOR_FAILED',
        `the editor "${editor}" ${status === null ? 'could not start' : `exited with status ${status}`}; ${file} was not checked`,
        { hint: 'check VISUAL / EDITOR' },
      );
    }
    const after = await loadWorkspace(ctx.paths, ctx.env);
    const entry = after.apps.find((a) => a.file === file);
    if (!entry) {
      return result(1, file, name, undefined, `${termPath(file)} is gone; nothing to validate`, round);
    }
    if (entry.ok) {
      return result(
        0,
        file,
        entry.name,
        undefined,
        `${out.c.green('ok')}  ${termText(entry.name)}  ${termPath(file)}`,
        round,
      );
    }
    const text = [
      `${out.c.red('bad')} ${termText(entry.name)}: ${messageText(entry.error, '      ')}`,
      ...(entry.error.hint ? [`      hint: ${termMessage(entry.error.hint)}`] : []),
    ].join('\n');
    if (!interactive || !io.stdin) return result(1, file, entry.name, entry.error, text, round);
    out.err(text);
    // Loaded here: every command's module is imported at start-up, and only this question needs it.
    const { createInterface } = process.getBuiltinModule('node:readline/promises');
    const rl = createInterface({ input: io.stdin, output: out.stderr });
    const answer = (await rl.question('reopen the editor to fix it? [Y/n] ')).trim().toLowerCase();
    rl.close();
    if (answer === 'n' || answer === 'no') {
      // Giving up on the edit discards it, as `crontab -e` does: the recipe on disk stays usable.
      if (!before) return result(1, file, entry.name, entry.error, '', round);
      await before.restore();
      out.err(`your changes were discarded; ${termPath(file)} is as it was before edit`);
      return result(1, file, entry.name, entry.error, '', round, true);
    }
  }
}

function result(
  exitCode: number,
  file: string,
  name: string,
  error: KeeperError | undefined,
  human: string,
  rounds: number,
  restored = false,
): CommandResult {
  return {
    exitCode,
    json: {
      command: 'edit',
      app: name,
      file,
      valid: exitCode === 0,
      error: error ? errorJson(error) : null,
      rounds,
      restored,
    },
    human,
  };
}

/** `edit APP`: the recipe in the user's editor, validated on save. */
export const edit = defineCommand<[string], Record<string, never>>({
  name: 'edit',
  summary: 'open an app’s recipe in $VISUAL or $EDITOR and validate it on save',
  arguments: [{ name: '<app>', description: 'app whose recipe to edit' }],
  flags: [],
  examples: [
    ['appimage-keeper edit obsidian', 'open the recipe in $VISUAL or $EDITOR and validate it on save'],
    [
      'appimage-keeper --config-dir ~/dotfiles/appimage-keeper edit obsidian',
      'a recipe of another configuration',
    ],
  ],
  handler: ({ ctx, output, stdin, args: [app] }) => editCommand(ctx(), output(), app, { stdin: stdin() }),
});
