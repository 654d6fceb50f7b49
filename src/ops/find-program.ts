import { access, constants, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * Finds an executable on the PATH of `env` (not of this process), so tests and callers can point
 * at their own `systemctl` or `notify-send`. Relative PATH entries are ignored, like a login shell
 * started from elsewhere would not find them either.
 */
export async function findProgram(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    const isFile = await stat(candidate).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!isFile) continue;
    const executable = await access(candidate, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (executable) return candidate;
  }
  return undefined;
}
