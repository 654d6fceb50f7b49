import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { ConfigIssue } from '../core/errors.js';
import { resolveScriptPath } from './recipe-checks.js';
import { PLACEHOLDERS } from './templates.js';
import { issueAt, type YamlFile } from './yaml-file.js';

/** The part of a resolver script read to look for the scaffold's placeholder URL. */
const SCRIPT_SCAN_BYTES = 64 * 1024;

async function scriptHead(file: string): Promise<string> {
  // Only a regular file is read (a directory or FIFO is the script-path check's to report), and
  // without blocking, so a FIFO swapped in meanwhile cannot hang validate.
  if (
    !(await stat(file).then(
      (s) => s.isFile(),
      () => false,
    ))
  )
    return '';
  const fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => undefined);
  if (!fh) return '';
  try {
    const buf = Buffer.alloc(SCRIPT_SCAN_BYTES);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } catch {
    return '';
  } finally {
    await fh.close();
  }
}

/**
 * Values `init --app` scaffolded and the user has not replaced yet: a recipe with them would only fail
 * later, against the network, with a less helpful error.
 */
export async function placeholderIssues(
  y: YamlFile,
  data: Record<string, unknown>,
  recipeDir: string,
): Promise<ConfigIssue[]> {
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
    const text = await scriptHead(resolveScriptPath(strategy.script_path, recipeDir));
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
