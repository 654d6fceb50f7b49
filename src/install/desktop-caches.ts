import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { pathExists } from '../core/path-exists.js';

const TOOL_TIMEOUT_MS = 10_000;

/** Finds an executable on PATH (undefined when absent). */
async function which(tool: string, path: string | undefined): Promise<string | undefined> {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, tool);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  return undefined;
}

function runTool(file: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: TOOL_TIMEOUT_MS }, (err, _stdout, stderr) => {
      resolve(err ? `${file} ${args.join(' ')} failed: ${stderr.trim() || err.message}` : undefined);
    });
  });
}

/**
 * Refreshes the desktop database and icon cache, best effort. A cache is only refreshed when it
 * already exists (or, for the MIME cache, when the entry declares MimeType): creating a cache the
 * user never had would make their desktop rely on it, and it would go stale when other tools add
 * files without refreshing it. Never throws; failures come back as warnings.
 */
export async function refreshDesktopCaches(opts: {
  applicationsDir: string;
  hicolorDir: string;
  declaresMimeTypes: boolean;
  pathEnv?: string | undefined;
}): Promise<string[]> {
  const warnings: string[] = [];
  const pathEnv = opts.pathEnv ?? process.env.PATH;
  if (opts.declaresMimeTypes || (await pathExists(join(opts.applicationsDir, 'mimeinfo.cache')))) {
    const tool = await which('update-desktop-database', pathEnv);
    if (tool) {
      const w = await runTool(tool, ['-q', opts.applicationsDir]);
      if (w) warnings.push(w);
    }
  }
  if (await pathExists(join(opts.hicolorDir, 'icon-theme.cache'))) {
    const tool = await which('gtk-update-icon-cache', pathEnv);
    if (tool) {
      const w = await runTool(tool, ['-q', '-t', '-f', opts.hicolorDir]);
      if (w) warnings.push(w);
    }
  }
  return warnings;
}
