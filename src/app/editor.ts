import { spawn } from 'node:child_process';
import { lstat, readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../core/atomic-files.js';
import { shellQuote } from '../core/shell-quote.js';
import { findProgram } from '../system/find-program.js';

/** The programs tried, in git's order, when neither $VISUAL nor $EDITOR names an editor. */
export const FALLBACK_EDITORS = ['editor', 'vi'] as const;

/**
 * The user's editor command: $VISUAL, then $EDITOR (either may carry arguments, e.g. "code --wait"),
 * then, as git does, the system's `editor` (Debian's alternative) and `vi` from PATH. A dumb
 * terminal gets no fallback: vi cannot work there, so git refuses too.
 */
export async function editorCommand(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const name of ['VISUAL', 'EDITOR'] as const) {
    const v = env[name]?.trim();
    if (v) return v;
  }
  if (env.TERM === 'dumb') return undefined;
  for (const name of FALLBACK_EDITORS) {
    const found = await findProgram(name, env);
    if (found) return shellQuote(found);
  }
  return undefined;
}

/**
 * Opens `file` in the editor on this terminal and resolves with its exit status (null when it could
 * not start or was killed). The command goes through `sh -c` as git does, so arguments in $EDITOR
 * work; the file is passed as a positional parameter, never spliced into the command text.
 */
export function openInEditor(editor: string, file: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', `${editor} "$1"`, 'sh', file], { stdio: 'inherit', env });
    child.on('error', () => resolve(null));
    child.on('close', (code) => resolve(code));
  });
}

/**
 * The recipe as it is before the editor opens, and a way to put it back (what `crontab -e` does
 * with an edit the user gives up on). Undefined when it is too large to hold or cannot be read:
 * then there is nothing to restore, and the edit stays as saved.
 */
export async function snapshotFile(
  file: string,
  root: string,
  maxBytes: number,
): Promise<{ restore: () => Promise<void> } | undefined> {
  const info = await lstat(file).catch(() => undefined);
  if (!info?.isFile() || info.size > maxBytes) return undefined;
  const data = await readFile(file).catch(() => undefined);
  if (!data || data.length > maxBytes) return undefined;
  return { restore: () => writeFileAtomic(file, data, { root, mode: info.mode & 0o777 }) };
}
