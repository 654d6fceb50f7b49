/**
 * Reads the upstream an AM install script names, as text: `SITE="owner/repo"` and the releases API
 * call that must use it. The script is never run; one whose API call names another repository is
 * not trusted (it could download from anywhere while claiming an upstream).
 */
import { ownerRepo } from './text-fields.js';

/** Longest script read. */
export const MAX_SCRIPT_BYTES = 256 * 1024;

/** The upstream `owner/repo`, or why there is none. */
export type ScriptSource = { ok: true; repository: string } | { ok: false; why: string };

/** What `script` (an AM install script's text) says its upstream is. */
export function amScriptSource(script: string): ScriptSource {
  const text = script.slice(0, MAX_SCRIPT_BYTES);
  const site = /^\s*SITE=(["']?)([^"'\s]+)\1\s*$/m.exec(text);
  if (!site) return { ok: false, why: 'its script names no SITE="owner/repo"' };
  const repository = ownerRepo(site[2] ?? '');
  if (!repository) return { ok: false, why: `its script's SITE is not owner/repo` };
  const calls = [...text.matchAll(/api\.github\.com\/repos\/([^\s"')]+?)\/releases/g)].map((m) => m[1] ?? '');
  if (calls.length === 0) return { ok: false, why: `its script does not query ${repository}'s releases` };
  const other = calls.find(
    (c) => c !== '$SITE' && c !== '${SITE}' && c.toLowerCase() !== repository.toLowerCase(),
  );
  if (other !== undefined)
    return {
      ok: false,
      why: `its script says SITE="${repository}" but queries ${other.slice(0, 100)}: not trusted`,
    };
  return { ok: true, repository };
}
