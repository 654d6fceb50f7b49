/**
 * From one forge release to the `asset_match` of a new recipe (`add`, and `adopt` of a file whose
 * AppStream data names a forge): the AppImage asset for this machine, its name with the version
 * replaced by `*` and the architecture token kept, checked to select exactly that asset and no
 * build for another architecture.
 */
import { compileGlob } from '../../config/recipe-glob.js';
import { firstControlChar } from '../../core/control-chars.js';
import { KeeperError } from '../../core/errors.js';
import { appImageArch, archesInName, retargetArch, type AppImageArch } from '../../sources/forge/arch.js';
import { chooseAsset, matchingAssets } from '../../sources/forge/asset-match.js';
import type { ForgeAsset, ForgeRelease } from '../../sources/forge/release.js';

/** The asset a new recipe follows and the patterns that select it. */
export interface DerivedMatch {
  asset: ForgeAsset;
  assetMatch: string;
  /** Set when the asset is a ZIP: the AppImage inside it. */
  innerAssetMatch?: string | undefined;
  notes: string[];
}

const OTHER_ARCHES: AppImageArch[] = ['x86_64', 'aarch64', 'i686', 'armhf'];
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

/** True when `glob` would also select the same file built for another architecture. */
function selectsOtherArch(glob: string, name: string, host: AppImageArch): AppImageArch | undefined {
  if (!archesInName(name).includes(host)) return undefined;
  const isMatch = compileGlob(glob, { dot: true });
  for (const arch of OTHER_ARCHES) {
    if (arch === host) continue;
    if (isMatch(retargetArch(name, arch).name)) return arch;
  }
  return undefined;
}

// What a glob can select and a file can be called: one path segment, no control character.
function isFileName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && firstControlChar(name) === -1;
}

function isAppImageName(name: string): boolean {
  return /\.appimage$/i.test(name);
}

/**
 * Derives the recipe patterns for this machine from a release. ADD_NO_APPIMAGE (listing the assets)
 * when the release has neither an AppImage nor a ZIP for this machine.
 */
export function deriveAssetMatch(
  release: ForgeRelease,
  nodeArch: string,
  versionHints: readonly string[] = [],
): DerivedMatch {
  const host = appImageArch(nodeArch) as AppImageArch;
  const notes: string[] = [];
  const named = release.assets.filter((a) => isFileName(a.name));
  const unusable = release.assets.filter((a) => !isFileName(a.name));
  const appImages = named.filter((a) => isAppImageName(a.name));
  const zips = named.filter((a) => /\.zip$/i.test(a.name));
  const pool = appImages.length > 0 ? appImages : zips;
  const unusableCandidates = unusable.filter((a) => isAppImageName(a.name) || /\.zip$/i.test(a.name));
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
  const asset = chooseAsset(pool, { glob: '*', nodeArch });
  let glob = globForName(asset.name, release.tag, versionHints);
  const selected = matchingAssets(release.assets, { glob, nodeArch });
  const other = selectsOtherArch(glob, asset.name, host);
  if (other !== undefined || selected.length !== 1 || selected[0] !== asset) {
    // The version-free glob is too wide here; the literal name always selects exactly this asset.
    notes.push(
      `asset_match is the literal name ${asset.name}: a version-free pattern also selected other assets`,
    );
    glob = escapeGlob(asset.name);
  }
  const inner = isAppImageName(asset.name) ? undefined : '*.AppImage';
  if (inner) notes.push(`${asset.name} is a ZIP: inner_asset_match selects the AppImage inside it`);
  return { asset, assetMatch: glob, innerAssetMatch: inner, notes };
}

/** The `strategy` block of a forge recipe for `repository`, with the patterns derived for it. */
export function forgeStrategyBlock(repository: string, derived: DerivedMatch): Record<string, unknown> {
  return {
    strategy: 'forge',
    repository,
    asset_match: derived.assetMatch,
    ...(derived.innerAssetMatch ? { inner_asset_match: derived.innerAssetMatch } : {}),
  };
}
