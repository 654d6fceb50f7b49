/**
 * Chooses the one release asset a recipe means: glob and/or regex, companions (signatures,
 * checksums, zsync control files, debug builds) left out unless named, then this machine's
 * architecture. Pure: no I/O, so every rule is unit-tested directly.
 */
import { compileGlob } from '../../config/recipe-glob.js';
import { compileRecipeRegex, isRegexProblem, type RecipeRegex } from '../../config/recipe-regex.js';
import { KeeperError } from '../../core/errors.js';
import { appImageArch, archesInName } from './arch.js';

/** The part of an asset the matcher needs. */
export interface NamedAsset {
  name: string;
}

/** Patterns from the recipe and the host's Node architecture. */
export interface AssetMatchOptions {
  glob?: string | undefined;
  regex?: string | undefined;
  /** Node's `process.arch` of this machine. */
  nodeArch: string;
}

// Each companion kind carries the word that, found in the user's pattern, means "I want this one".
const COMPANIONS: { word: string; re: RegExp }[] = [
  { word: 'zsync', re: /\.zsync$/i },
  { word: 'sig', re: /\.sig$/i },
  { word: 'asc', re: /\.asc$/i },
  { word: 'minisig', re: /\.minisig$/i },
  { word: 'sha256', re: /[-.]sha256(sum)?(\.txt)?$/i },
  { word: 'digest', re: /\.digest$/i },
  { word: 'yml', re: /^latest(-[a-z0-9]+)*\.ya?ml$/i },
  { word: 'sha512', re: /\.sha512(sum)?$/i },
  { word: 'md5', re: /\.md5(sum)?$/i },
  { word: 'sha256sums', re: /^sha256sums(\.txt)?$/i },
  { word: 'checksums', re: /^checksums?(\.txt)?$/i },
  { word: 'blockmap', re: /\.blockmap$/i },
  { word: 'debug', re: /(?<![a-z0-9])(debug|dbg|debuginfo)(?![a-z0-9])/i },
];

/**
 * Default when a recipe gives neither pattern (fp-appimage-updater then takes every asset): the
 * AppImages, in any letter case, narrowed by this machine's architecture like any other match.
 */
const DEFAULT_GLOB = '*.AppImage';

/** Picks the asset matching the recipe; throws ASSET_NO_MATCH or ASSET_AMBIGUOUS with the names. */
export function chooseAsset<T extends NamedAsset>(assets: readonly T[], options: AssetMatchOptions): T {
  const matches = matchingAssets(assets, options);
  const available = assets.map((a) => a.name);
  const patterns = describePatterns(options);
  if (matches.length === 0) {
    throw new KeeperError('ASSET_NO_MATCH', `no release asset matches ${patterns}`, {
      hint: available.length ? `available assets: ${available.join(', ')}` : 'the release has no assets',
      details: { available },
    });
  }
  if (matches.length === 1) return matches[0] as T;
  const host = appImageArch(options.nodeArch);
  const notOther = matches.filter((a) => archesInName(a.name).every((arch) => arch === host));
  if (notOther.length === 0) {
    throw new KeeperError(
      'ASSET_NO_MATCH',
      `${matches.length} assets match ${patterns} but none is for this machine (${host})`,
      { hint: `matching assets: ${names(matches)}`, details: { candidates: names(matches), arch: host } },
    );
  }
  const forHost = notOther.filter((a) => (archesInName(a.name) as string[]).includes(host));
  const best = forHost.length > 0 ? forHost : notOther;
  if (best.length === 1) return best[0] as T;
  throw new KeeperError('ASSET_AMBIGUOUS', `${best.length} assets match ${patterns}: ${names(best)}`, {
    hint: 'narrow asset_match or add asset_match_regex so exactly one asset matches',
    details: { candidates: best.map((a) => a.name) },
  });
}

/** Every asset matching the patterns, companions dropped unless the pattern names them. */
export function matchingAssets<T extends NamedAsset>(assets: readonly T[], options: AssetMatchOptions): T[] {
  const defaulted = options.glob === undefined && options.regex === undefined;
  const glob = defaulted ? DEFAULT_GLOB : options.glob;
  const isGlob = glob === undefined ? () => true : compileGlob(glob, { dot: true, nocase: defaulted });
  const re = options.regex === undefined ? undefined : compileRegex(options.regex);
  const patternText = `${glob ?? ''}\n${options.regex ?? ''}`.toLowerCase();
  return assets.filter((asset) => {
    const name = basename(asset.name);
    if (!isGlob(name)) return false;
    if (re && !re.matches(name)) return false;
    return !COMPANIONS.some((c) => c.re.test(name) && !patternText.includes(c.word));
  });
}

// Recipes are validated when loaded, so this throws only for a pattern that bypassed validation.
function compileRegex(source: string): RecipeRegex {
  const re = compileRecipeRegex(source);
  if (!isRegexProblem(re)) return re;
  throw new KeeperError(
    'ASSET_PATTERN_INVALID',
    `asset_match_regex /${source}/ at offset ${re.offset}: ${re.message}`,
  );
}

function describePatterns(options: AssetMatchOptions): string {
  const parts: string[] = [];
  if (options.glob !== undefined) parts.push(`asset_match "${options.glob}"`);
  if (options.regex !== undefined) parts.push(`asset_match_regex /${options.regex}/`);
  return parts.length
    ? parts.join(' and ')
    : `the default "${DEFAULT_GLOB}" (any case; the recipe sets no asset_match)`;
}

function names(assets: readonly NamedAsset[]): string {
  return assets.map((a) => a.name).join(', ');
}

function basename(name: string): string {
  const slash = name.lastIndexOf('/');
  return slash === -1 ? name : name.slice(slash + 1);
}
