/**
 * Reads the upstream an AM install script names, as text: `SITE="owner/repo"` and the releases API
 * call that must use it. The script is never run. SITE is read as bash would set it
 * (shell-writes.ts): only a script that sets it at its top level, once or always to the same
 * value, names an upstream; one that sets it anywhere else (a function, an `if`, a subshell…) or
 * whose API call names another repository is not trusted, since AM's own run could use another.
 */
import { scanVariableWrites, type VariableWrite } from './shell-writes.js';
import { ownerRepo } from './text-fields.js';

/** Longest script read. */
export const MAX_SCRIPT_BYTES = 256 * 1024;

/** The upstream `owner/repo`, or why there is none. */
export type ScriptSource = { ok: true; repository: string } | { ok: false; why: string };

const SHOWN = 100;

/** What `script` (an AM install script's text) says its upstream is. */
export function amScriptSource(script: string): ScriptSource {
  const scan = scanVariableWrites(script, 'SITE');
  if (!scan.ok)
    return {
      ok: false,
      why: `its script cannot be read as shell (line ${scan.line}: ${scan.why}), so its SITE is unknown`,
    };
  const odd = scan.writes.find((w) => w.how !== 'assignment' || w.inside);
  if (odd)
    return {
      ok: false,
      why: `its script sets SITE ${where(odd)} (line ${odd.line}): only a SITE="owner/repo" set at its top level is read`,
    };
  const first = scan.writes[0];
  if (!first) return { ok: false, why: 'its script names no SITE="owner/repo"' };
  const other = scan.writes.find((w) => w.value !== first.value);
  if (other)
    return {
      ok: false,
      why: `its script sets SITE twice to different values (${shown(first)} on line ${first.line}, ${shown(other)} on line ${other.line})`,
    };
  const repository = first.value === undefined ? undefined : ownerRepo(first.value);
  if (!repository)
    return {
      ok: false,
      why: `its script's SITE (${shown(first)}, line ${first.line}) is not a plain owner/repo`,
    };
  const calls = [...script.matchAll(/api\.github\.com\/repos\/([^\s"')]+?)\/releases/g)].map(
    (m) => m[1] ?? '',
  );
  if (calls.length === 0) return { ok: false, why: `its script does not query ${repository}'s releases` };
  const queried = calls.find(
    (c) => c !== '$SITE' && c !== '${SITE}' && c.toLowerCase() !== repository.toLowerCase(),
  );
  if (queried !== undefined)
    return {
      ok: false,
      why: `its script says SITE="${repository}" but queries ${queried.slice(0, SHOWN)}: not trusted`,
    };
  return { ok: true, repository };
}

// Where a write that is not a plain top-level assignment sits, for the message.
function where(w: VariableWrite): string {
  const block = w.inside?.block;
  const inside = w.inside
    ? ` inside ${/^[aeiou]/.test(block ?? '') ? 'an' : 'a'} ${block} (from line ${w.inside.line})`
    : '';
  switch (w.how) {
    case 'prefix':
      return `only for the command that follows it${inside}`;
    case 'joined':
      return `in an &&, ||, | or & list${inside}`;
    case 'builtin':
      return `through ${w.via ?? 'a builtin'}${inside}`;
    case 'expansion':
      return `through ${w.via === 'arithmetic' ? 'arithmetic' : '${SITE:=…}'}${inside}`;
    default:
      return inside.trimStart();
  }
}

function shown(w: VariableWrite): string {
  return w.value === undefined ? 'an expansion' : JSON.stringify(w.value.slice(0, SHOWN));
}
