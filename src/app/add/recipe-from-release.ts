/**
 * From one forge release to the asset patterns of a new recipe (`add`, and `adopt` of a file whose
 * AppStream data names a forge): the AppImage asset for this machine (or the one the user chose),
 * then its version-free pattern (asset-pattern.ts). Pure: probing and prompting happen in `add`.
 */
import { firstControlChar } from '../../core/control-chars.js';
import { KeeperError, toKeeperError } from '../../core/errors.js';
import { appImageArch, archesInName, retargetArch, type AppImageArch } from '../../sources/forge/arch.js';
import { chooseAsset } from '../../sources/forge/asset-match.js';
import type { ForgeAsset, ForgeRelease } from '../../sources/forge/release.js';
import { isExactAppImageName, isLooseAppImageName } from './appimage-probe.js';
import { patternFor } from './asset-pattern.js';

/** The asset a new recipe follows and the patterns that select it. */
export interface DerivedMatch {
  asset: ForgeAsset;
  /** Exactly one of assetMatch and assetRegex is set. */
  assetMatch?: string | undefined;
  assetRegex?: string | undefined;
  /** Set when the asset is a ZIP: the AppImage inside it. */
  innerAssetMatch?: string | undefined;
  notes: string[];
}

/** How the asset is chosen, besides this machine's architecture. */
export interface DeriveOptions {
  /** Other spellings of the version (adopt: the AppImage's own). */
  versionHints?: readonly string[] | undefined;
  /** Loosely named assets (`…_AppImage`) whose magic bytes were confirmed. */
  confirmed?: ReadonlySet<string> | undefined;
  /** `--asset-match` / `--asset-regex`: the user's choice among the candidates. */
  glob?: string | undefined;
  regex?: string | undefined;
  /** The exact asset name picked at the prompt. */
  chosen?: string | undefined;
  /** A glob for the asset of a copied download URL, preferred when it selects one. */
  prefer?: string | undefined;
}

const GENERIC_VERSION = /\d+(?:\.\d+)+/;

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]{}()!+@\\]/g, '\\$&');
}

function versionCandidates(tag: string, hints: readonly string[]): string[] {
  const raw = [tag, tag.replace(/^v(?=\d)/i, ''), ...hints].map((v) => v.trim()).filter((v) => v.length >= 2);
  return [...new Set(raw)].sort((a, b) => b.length - a.length);
}

/** `name` with the version replaced by `*` (the first spelling found), everything else literal. */
export function globForName(name: string, tag: string, hints: readonly string[] = []): string {
  for (const v of versionCandidates(tag, hints)) {
    const at = name.indexOf(v);
    if (at !== -1) return `${escapeGlob(name.slice(0, at))}*${escapeGlob(name.slice(at + v.length))}`;
  }
  const m = GENERIC_VERSION.exec(name);
  if (m) return `${escapeGlob(name.slice(0, m.index))}*${escapeGlob(name.slice(m.index + m[0].length))}`;
  return escapeGlob(name);
}

// What a glob can select and a file can be called: one path segment, no control character.
function isFileName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && firstControlChar(name) === -1;
}

function ambiguous(tag: string, candidates: readonly ForgeAsset[], chosenBy: string): KeeperError {
  const names = candidates.map((a) => a.name);
  return new KeeperError(
    'ADD_ASSET_AMBIGUOUS',
    `release ${tag} has ${names.length} AppImages for this machine${chosenBy}: ${names.join(', ')}`,
    {
      hint: 'choose one with --asset-match GLOB or --asset-regex RE (on a terminal, add asks)',
      exitCode: 2,
      details: { candidates: names },
    },
  );
}

// The asset the user means: by the prompt's answer, their pattern, a copied URL, or this machine.
function pickAsset(
  pool: ForgeAsset[],
  release: ForgeRelease,
  nodeArch: string,
  opts: DeriveOptions,
): ForgeAsset {
  if (opts.chosen !== undefined) {
    const chosen = pool.find((a) => a.name === opts.chosen);
    if (chosen) return chosen;
  }
  const user = opts.glob !== undefined || opts.regex !== undefined;
  const attempts: { glob?: string | undefined; regex?: string | undefined }[] = [];
  if (user) attempts.push({ glob: opts.glob, regex: opts.regex });
  else if (opts.prefer !== undefined) {
    const host = appImageArch(nodeArch) as AppImageArch;
    attempts.push({ glob: opts.prefer }, { glob: retargetArch(opts.prefer, host).name }, { glob: '*' });
  } else attempts.push({ glob: '*' });
  let last: unknown;
  for (const a of attempts) {
    try {
      return chooseAsset(pool, { ...a, nodeArch });
    } catch (err) {
      last = err;
      const e = toKeeperError(err);
      if (e.code === 'ASSET_AMBIGUOUS') {
        const names = (e.details?.candidates as string[] | undefined) ?? [];
        const by = user
          ? ` matching ${[opts.glob, opts.regex && `/${opts.regex}/`].filter(Boolean).join(' and ')}`
          : '';
        throw ambiguous(
          release.tag,
          pool.filter((p) => names.includes(p.name)),
          by,
        );
      }
    }
  }
  const e = toKeeperError(last);
  if (user && e.code === 'ASSET_NO_MATCH')
    throw new KeeperError('ADD_ASSET_NO_MATCH', `release ${release.tag}: ${e.message}`, {
      hint: `its AppImages: ${pool.map((a) => a.name).join(', ')}`,
      exitCode: 2,
      details: { candidates: pool.map((a) => a.name) },
    });
  throw e;
}

/**
 * Derives the recipe patterns for this machine from a release. ADD_NO_APPIMAGE (listing the assets)
 * when the release has neither an AppImage nor a ZIP for this machine; ADD_ASSET_AMBIGUOUS (exit 2,
 * the candidates in details) when several fit and nothing says which; ADD_PATTERN_NONE when no
 * version-free pattern selects the one chosen.
 */
export function deriveAssetMatch(
  release: ForgeRelease,
  nodeArch: string,
  opts: DeriveOptions = {},
): DerivedMatch {
  const host = appImageArch(nodeArch) as AppImageArch;
  const notes: string[] = [];
  const named = release.assets.filter((a) => isFileName(a.name));
  const unusable = release.assets.filter((a) => !isFileName(a.name));
  const isAppImage = (a: ForgeAsset): boolean =>
    isExactAppImageName(a.name) || (isLooseAppImageName(a.name) && opts.confirmed?.has(a.name) === true);
  const appImages = named.filter(isAppImage);
  const zips = named.filter((a) => /\.zip$/i.test(a.name));
  const pool = appImages.length > 0 ? appImages : zips;
  const unusableCandidates = unusable.filter((a) => /appimage$/i.test(a.name) || /\.zip$/i.test(a.name));
  if (pool.length === 0 && unusableCandidates.length > 0) {
    const shown = unusableCandidates.map((a) => JSON.stringify(a.name)).join(', ');
    throw new KeeperError(
      'ADD_ASSET_NAME_UNSAFE',
      `release ${release.tag}: no asset_match can select ${shown}: not a single file name`,
      {
        hint: 'an asset name with "/", a "." or ".." part or a control character cannot be saved as a file; ask the project to rename it',
        details: { assets: unusableCandidates.map((a) => a.name) },
      },
    );
  }
  for (const a of unusableCandidates)
    notes.push(`left out ${JSON.stringify(a.name)}: not a single file name`);
  if (pool.length === 0) {
    throw new KeeperError(
      'ADD_NO_APPIMAGE',
      `release ${release.tag} has no AppImage asset (nor a ZIP that could hold one)`,
      {
        hint: release.assets.length
          ? `its assets: ${release.assets.map((a) => a.name).join(', ')}`
          : 'the release has no assets',
        details: { assets: release.assets.map((a) => a.name) },
      },
    );
  }
  const asset = pickAsset(pool, release, nodeArch, opts);
  const shipped = [...new Set(pool.flatMap((a) => archesInName(a.name)))];
  const pattern = patternFor({
    asset,
    assets: release.assets,
    tag: release.tag,
    versionHints: opts.versionHints ?? [],
    host,
    shippedArches: shipped.includes(host) || shipped.length === 0 ? shipped : [...shipped, host],
    userGlob: opts.glob,
    userRegex: opts.regex,
  });
  notes.push(...pattern.notes);
  const inner = /\.zip$/i.test(asset.name) ? '*.AppImage' : undefined;
  if (inner) notes.push(`${asset.name} is a ZIP: inner_asset_match selects the AppImage inside it`);
  return {
    asset,
    assetMatch: pattern.assetMatch,
    assetRegex: pattern.assetRegex,
    innerAssetMatch: inner,
    notes,
  };
}

/** The recipe's strategy fields that select the derived asset. */
export function patternFields(derived: DerivedMatch): Record<string, string> {
  return {
    ...(derived.assetMatch !== undefined ? { asset_match: derived.assetMatch } : {}),
    ...(derived.assetRegex !== undefined ? { asset_match_regex: derived.assetRegex } : {}),
    ...(derived.innerAssetMatch ? { inner_asset_match: derived.innerAssetMatch } : {}),
  };
}

/** The `strategy` block of a forge recipe for `repository`, with the patterns derived for it. */
export function forgeStrategyBlock(repository: string, derived: DerivedMatch): Record<string, unknown> {
  return {
    strategy: 'forge',
    repository,
    ...patternFields(derived),
  };
}
