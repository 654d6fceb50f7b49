import { ExitCode } from '../core/errors.js';
import { VERSION } from '../core/version.js';
import { defineCommand } from './command-spec.js';
import type { CommandResult } from './result.js';

/** What `version` (and a lone `-v`) answers. */
export function versionResult(): CommandResult {
  return { exitCode: ExitCode.ok, json: { command: 'version', version: VERSION }, human: VERSION };
}

/** `version`: the version, as `-V` and `--version` print it. */
export const version = defineCommand<[], Record<string, never>>({
  name: 'version',
  summary: 'print the version (as -V and --version)',
  arguments: [],
  flags: [],
  examples: [
    ['appimage-keeper version', 'print the version'],
    ['appimage-keeper --json version', 'the same as one JSON document'],
  ],
  handler: () => versionResult(),
});
