import { access, constants, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

async function isExecutableFile(path: string): Promise<boolean> {
  const isFile = await stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!isFile) return false;
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

function pathCandidates(name: string, env: NodeJS.ProcessEnv): string[] {
  return (env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir && isAbsolute(dir))
    .map((dir) => join(dir, name));
}

/**
 * Finds an executable on the PATH of `env` (not of this process), so tests and callers can point
 * at their own `systemctl` or `notify-send`. Relative PATH entries are ignored, like a login shell
 * started from elsewhere would not find them either.
 */
export async function findProgram(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const candidate of pathCandidates(name, env)) {
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** Every executable called `name` on the PATH of `env`, in PATH order (each path once). */
export async function findPrograms(name: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const found: string[] = [];
  for (const candidate of new Set(pathCandidates(name, env))) {
    if (await isExecutableFile(candidate)) found.push(candidate);
  }
  return found;
}
