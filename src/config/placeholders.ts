import type { ConfigIssue } from '../core/errors.js';
import { readSmallFileSync } from '../core/small-file.js';
import { resolveScriptPath } from './recipe-checks.js';
import { PLACEHOLDERS } from './placeholder-values.js';
import { issueAt, type YamlFile } from './yaml-file.js';

/** The part of a resolver script read to look for the scaffold's placeholder URL. */
const SCRIPT_SCAN_BYTES = 64 * 1024;

function scriptHead(file: string): string {
  // Only a regular file is read (a directory or FIFO is the script-path check's to report), and
  // without blocking, so a FIFO swapped in meanwhile cannot hang validate.
  try {
    const read = readSmallFileSync(file, SCRIPT_SCAN_BYTES, { head: true });
    return read.kind === 'text' ? read.text : '';
  } catch {
    return '';
  }
}

/**
 * Values `init --app` scaffolded and the user has not replaced yet: a recipe with them would only fail
 * later, against the network, with a less helpful error.
 */
export function placeholderIssues(
  y: YamlFile,
  data: Record<string, unknown>,
  recipeDir: string,
): ConfigIssue[] {
  const strategy = (data.strategy ?? {}) as Record<string, unknown>;
  const issues: ConfigIssue[] = [];
  const hint = 'replace the placeholder that `init` wrote';
  if (typeof strategy.repository === 'string' && /\/OWNER\/REPO\/?$/.test(strategy.repository))
    issues.push(
      issueAt(
        y,
        ['strategy', 'repository'],
        'strategy.repository: the placeholder OWNER/REPO is still there',
        {
          hint: `${hint}, e.g. https://github.com/obsidianmd/obsidian-releases`,
        },
      ),
    );
  if (strategy.url === PLACEHOLDERS.url)
    issues.push(
      issueAt(y, ['strategy', 'url'], `strategy.url: the placeholder ${PLACEHOLDERS.url} is still there`, {
        hint: `${hint} with the URL that serves the latest AppImage`,
      }),
    );
  if (strategy.strategy === 'script' && typeof strategy.script_path === 'string') {
    const text = scriptHead(resolveScriptPath(strategy.script_path, recipeDir));
    if (text.includes(PLACEHOLDERS.scriptUrl))
      issues.push(
        issueAt(
          y,
          ['strategy', 'script_path'],
          `strategy.script_path: ${strategy.script_path} still prints the placeholder ${PLACEHOLDERS.scriptUrl}... as its URL`,
          { hint: 'make the script print the real download URL and version' },
        ),
      );
  }
  return issues;
}
