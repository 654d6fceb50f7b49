import { spawn } from 'node:child_process';

/** The user's editor command: $VISUAL, then $EDITOR (either may carry arguments, e.g. "code --wait"). */
export function editorCommand(env: NodeJS.ProcessEnv): string | undefined {
  for (const name of ['VISUAL', 'EDITOR'] as const) {
    const v = env[name]?.trim();
    if (v) return v;
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
