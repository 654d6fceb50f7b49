import { isSea } from 'node:sea';
import { ExitCode } from '../core/errors.js';
import { VERSION } from '../core/version.js';
import { runtimeCheck } from '../system/doctor/runtime-check.js';
import { defineCommand } from './command-spec.js';
import type { CommandResult } from './result.js';

/**
 * What `--version` prints: the version, and with `--verbose` the Node.js that runs the tool (the
 * one the standalone executable embeds, or the machine's) as doctor's `runtime` check names it.
 */
export function versionText(verbose: boolean, now: Date = new Date()): string {
  if (!verbose) return VERSION;
  const runtime = runtimeCheck({ version: process.version, sea: isSea(), execPath: process.execPath }, now);
  return `${VERSION}\n${runtime.message}`;
}

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
