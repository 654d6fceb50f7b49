/**
 * The pattern a new recipe writes for the asset it follows: never a versioned literal. The asset's
 * name with its version replaced by `*` (or, when a glob cannot tell it from its neighbours, a regex
 * with a numeric version), preferring forms without the architecture word; each form is checked the
 * way `check` will use it, to select that asset in this release and, where the release ships
 * several architectures, each architecture's own build on that machine.
 */
import { KeeperError, toKeeperError } from '../../core/errors.js';
import { archesInName, archTokens, nodeArchOf, type AppImageArch } from '../../sources/forge/arch.js';
import { chooseAsset } from '../../sources/forge/asset-match.js';
import type { ForgeAsset } from '../../sources/forge/release.js';

/** The recipe fields that select the asset: exactly one of them is set. */
export interface AssetPattern {
  assetMatch?: string | undefined;
  assetRegex?: string | undefined;
  notes: string[];
}

/** What the pattern is derived from and checked against. */
export interface PatternInput {
  asset: ForgeAsset;
  /** Every asset of the release, as `check` will see them. */
  assets: readonly ForgeAsset[];
  tag: string;
  /** Other spellings of the version (adopt: the AppImage's own version). */
  versionHints: readonly string[];
  host: AppImageArch;
  /** The candidate pool's architectures: the builds the pattern must also select on their machines. */
  shippedArches: readonly AppImageArch[];
  /** A user's version-free pattern, tried last. */
  userGlob?: string | undefined;
  userRegex?: string | undefined;
}

type Part =
  { kind: 'text'; text: string } | { kind: 'version'; text: string } | { kind: 'arch'; text: string };

const GENERIC_VERSION = /\d+(?:\.\d+)+/;
const SEPARATOR = /[-_.\s]$/;

function versionCandidates(tag: string, hints: readonly string[]): string[] {
  const raw = [tag, tag.replace(/^v(?=\d)/i, ''), ...hints].map((v) => v.trim()).filter((v) => v.length >= 2);
  return [...new Set(raw)].sort((a, b) => b.length - a.length);
}

/** Where the version stands in `name` (the tag's spelling first, then any dotted number). */
export function versionSpan(
  name: string,
  tag: string,
  hints: readonly string[] = [],
): { start: number; end: number } | undefined {
  for (const v of versionCandidates(tag, hints)) {
    const at = name.indexOf(v);
    if (at !== -1) return { start: at, end: at + v.length };
  }
  const m = GENERIC_VERSION.exec(name);
  return m ? { start: m.index, end: m.index + m[0].length } : undefined;
}

// The name cut into literal text, the version and the architecture words outside the version.
function parts(name: string, tag: string, hints: readonly string[]): Part[] {
  const v = versionSpan(name, tag, hints);
  const cuts: { start: number; end: number; kind: 'version' | 'arch' }[] = v
    ? [{ ...v, kind: 'version' }]
    : [];
  for (const t of archTokens(name)) {
    if (!cuts.some((c) => t.start < c.end && c.start < t.end)) cuts.push({ ...t, kind: 'arch' });
  }
  cuts.sort((a, b) => a.start - b.start);
  const out: Part[] = [];
  let at = 0;
  for (const c of cuts) {
    if (c.start > at) out.push({ kind: 'text', text: name.slice(at, c.start) });
    out.push({ kind: c.kind, text: name.slice(c.start, c.end) });
    at = c.end;
  }
  if (at < name.length) out.push({ kind: 'text', text: name.slice(at) });
  return out;
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]{}()!+@\\]/g, '\\$&');
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

type ArchForm = 'absorb' | 'star' | 'keep';

// A glob: the version is `*`; the architecture word kept, made `*`, or made `*` with the separator
// before it (so `Multi-*-x86_64.AppImage` becomes `Multi-*.AppImage`).
function globOf(ps: Part[], form: ArchForm): string {
  let out = '';
  for (const p of ps) {
    if (p.kind === 'text') out += escapeGlob(p.text);
    else if (p.kind === 'version') out += '*';
    else if (form === 'keep') out += escapeGlob(p.text);
    else {
      if (form === 'absorb' && SEPARATOR.test(out)) out = out.slice(0, -1);
      out += '*';
    }
  }
  return out.replace(/\*{2,}/g, '*');
}

// A regex: the version is a number of the same shape, so `App-1.2.AppImage` is told from
// `App-1.2-portable.AppImage`; an architecture word is kept or made an optional word.
function regexOf(ps: Part[], form: ArchForm): string {
  let out = '';
  for (const p of ps) {
    if (p.kind === 'text') out += escapeRegex(p.text);
    else if (p.kind === 'version')
      out += /^\d+(\.\d+)*$/.test(p.text) ? '\\d+(?:\\.\\d+)*' : '\\d[0-9A-Za-z.+~]*';
    else if (form === 'keep') out += escapeRegex(p.text);
    else {
      const sep = /\\?[-_.\s]$/.exec(out);
      if (form === 'absorb' && sep) out = out.slice(0, -sep[0].length);
      out += '(?:[-_.][0-9A-Za-z_]+)?';
    }
  }
  return out;
}

type Candidate = { glob: string; regex?: undefined } | { regex: string; glob?: undefined };

function selects(c: Candidate, assets: readonly ForgeAsset[], nodeArch: string): ForgeAsset | undefined {
  try {
    return chooseAsset(assets, { glob: c.glob, regex: c.regex, nodeArch });
  } catch (err) {
    if (toKeeperError(err).code.startsWith('ASSET_')) return undefined;
    throw err;
  }
}

function neutral(c: Candidate, input: PatternInput): boolean {
  return input.shippedArches.every((arch) => {
    if (arch === input.host) return true;
    const got = selects(c, input.assets, nodeArchOf(arch));
    return got !== undefined && archesInName(got.name).includes(arch);
  });
}

/**
 * The asset_match (or asset_match_regex) for `input.asset`; ADD_PATTERN_NONE (exit 2) when no
 * version-free pattern selects it alone in its release.
 */
export function patternFor(input: PatternInput): AssetPattern {
  const { asset } = input;
  const ps = parts(asset.name, input.tag, input.versionHints);
  const hasArch = ps.some((p) => p.kind === 'arch');
  const forms: ArchForm[] = hasArch ? ['absorb', 'star', 'keep'] : ['keep'];
  const candidates: Candidate[] = [
    ...forms.map((f) => ({ glob: globOf(ps, f) })),
    ...forms.map((f) => ({ regex: regexOf(ps, f) })),
  ];
  const hasVersion = (text: string): boolean => ps.some((p) => p.kind === 'version' && text.includes(p.text));
  if (input.userGlob !== undefined && !hasVersion(input.userGlob)) candidates.push({ glob: input.userGlob });
  if (input.userRegex !== undefined && !hasVersion(input.userRegex))
    candidates.push({ regex: input.userRegex });
  const unique = candidates.filter(
    (c, i) => candidates.findIndex((d) => d.glob === c.glob && d.regex === c.regex) === i,
  );
  const working = unique.filter((c) => selects(c, input.assets, nodeArchOf(input.host))?.name === asset.name);
  const best = working.find((c) => neutral(c, input)) ?? working[0];
  if (!best) {
    throw new KeeperError(
      'ADD_PATTERN_NONE',
      `release ${input.tag}: no version-free pattern selects ${asset.name} alone ` +
        `(tried ${unique.map((c) => c.glob ?? `/${c.regex}/`).join(', ')})`,
      {
        hint: 'write the recipe yourself with a pattern that tells this asset apart (appimage-keeper init --app NAME --strategy forge)',
        exitCode: 2,
        details: { asset: asset.name, tried: unique.map((c) => c.glob ?? c.regex) },
      },
    );
  }
  const notes: string[] = [];
  const others = input.shippedArches.filter((a) => a !== input.host);
  if (others.length > 0 && !neutral(best, input))
    notes.push(
      `the pattern selects the ${input.host} build only: no version-free pattern also selects the ${others.join(', ')} build`,
    );
  if (best.regex !== undefined)
    notes.push('asset_match_regex: a glob for this name would also select other assets of the release');
  return best.glob !== undefined ? { assetMatch: best.glob, notes } : { assetRegex: best.regex, notes };
}
