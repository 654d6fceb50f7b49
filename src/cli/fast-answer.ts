import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from '../core/version.js';

// What the npm bundle's entry (launcher.ts) answers itself. `--version` and a shell's completion
// script need nothing but the version and the scripts the build wrote, so they are answered before
// the rest of the CLI (commander, zod, yaml and every command: most of the bundle) is loaded.
// Anything else, including these same words with any other flag, goes to the full CLI, which gives
// the same answers when it runs them itself (test/entry/fast-answer.test.ts compares them).

/** The file of each shell's completion script, written next to the bundle by scripts/build.mjs. */
export const COMPLETION_FILES: Readonly<Record<string, string>> = {
  bash: 'appimage-keeper.bash',
  zsh: '_appimage-keeper',
  fish: 'appimage-keeper.fish',
};

/**
 * What the launcher prints itself for `argv`, or undefined when the full CLI must run. Completion
 * scripts are read from `completionDir` (none: completion is left to the CLI).
 */
export function fastAnswer(argv: readonly string[], completionDir: string | undefined): string | undefined {
  const [first, second, ...rest] = argv;
  if (rest.length > 0) return undefined;
  // A lone `-v` prints the version only when no command is given, as the full CLI does.
  if (second === undefined && ['--version', '-V', 'version', '-v'].includes(first ?? ''))
    return `${VERSION}\n`;
  if (
    completionDir === undefined ||
    first !== 'completion' ||
    second === undefined ||
    !Object.hasOwn(COMPLETION_FILES, second)
  )
    return undefined;
  try {
    return readFileSync(join(completionDir, COMPLETION_FILES[second] ?? ''), 'utf8');
  } catch {
    // No pre-generated script (a development build, a stripped package): the full CLI makes one.
    return undefined;
  }
}
