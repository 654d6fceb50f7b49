/**
 * Where a catalogue entry's releases live: its repository, the repository its AM script names
 * (read as text, never run), or its download URL; or why it has none.
 */
import { request } from '../../http/http.js';
import { toKeeperError } from '../../core/errors.js';
import { amScriptSource, MAX_SCRIPT_BYTES } from '../../sources/catalogues/am-script.js';
import type { LoadedCatalogue } from '../../sources/catalogues/cache.js';
import type { CatalogueEntry } from '../../sources/catalogues/types.js';
import type { Run } from '../run.js';

/** An entry's usable source, or why there is none. */
export type EntrySource =
  | { kind: 'repository'; repository: string }
  | { kind: 'download'; url: string }
  | { kind: 'recipe'; recipe: Record<string, unknown> }
  | { kind: 'none'; why: string; /** The AM script read, for the user to read in turn. */ script?: string };

/** One catalogue entry with the catalogue it came from. */
export interface FoundEntry {
  catalogue: LoadedCatalogue;
  entry: CatalogueEntry;
}

/** Resolves the source of `found`; AM entries cost one bounded GET of their script. */
export async function entrySource(found: FoundEntry, run: Run): Promise<EntrySource> {
  const { entry } = found;
  if (entry.recipe) return { kind: 'recipe', recipe: entry.recipe };
  if (entry.repository) return { kind: 'repository', repository: entry.repository };
  if (entry.download) return { kind: 'download', url: entry.download };
  if (!entry.script) return { kind: 'none', why: 'it names no repository and no download' };
  try {
    const res = await request(run.ctx.http, entry.script, {
      maxBodyBytes: MAX_SCRIPT_BYTES,
      signal: run.signal,
      timeoutMs: 30_000,
    });
    if (res.status !== 200)
      return { kind: 'none', why: `its script ${entry.script} answered HTTP ${res.status}` };
    const src = amScriptSource(res.text);
    return src.ok
      ? { kind: 'repository', repository: src.repository }
      : { kind: 'none', why: src.why, script: entry.script };
  } catch (err) {
    if (run.signal.aborted) throw err;
    return { kind: 'none', why: `its script could not be read: ${toKeeperError(err).message}` };
  }
}

/** The key two sources are the same by (case-insensitive repository or URL). */
export function sourceKey(s: EntrySource): string {
  if (s.kind === 'repository')
    return s.repository
      .replace(/^https?:\/\/github\.com\//i, '')
      .replace(/\/+$/, '')
      .toLowerCase();
  if (s.kind === 'download') return s.url;
  if (s.kind === 'recipe') return JSON.stringify(s.recipe);
  return '';
}

/** True when a download URL names a version (it would pin the recipe to it). */
export function isVersionedUrl(url: string): boolean {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    return true;
  }
  return /\d+\.\d+/.test(path) || /\/v?\d+\//.test(path) || /\/(?:download\/)?v\d/i.test(path);
}
