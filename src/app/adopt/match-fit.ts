/**
 * Whether the source a catalogue entry names is this file's app. A name match alone is a guess:
 * entries go stale and some name the wrong repository, and `update` would replace the file with
 * whatever that repository ships. So a match is confident only when the release also fits the file:
 * its asset pattern selects the file's own name, or the file's AppStream id names the repository.
 * (Update information would say so too, but a file that has it never needs a catalogue.)
 */
import { basename } from 'node:path';
import { matchingAssets } from '../../sources/forge/asset-match.js';
import { originalFileName } from './file-names.js';
import type { AdoptInspection } from './inspect.js';
import type { FoundSource } from './source-finders.js';

// The forge each reverse-DNS AppStream prefix stands for (`io.github.OWNER.REPO`, Flathub's rule).
const ID_FORGES: Record<string, string> = {
  'io.github': 'github.com',
  'com.github': 'github.com',
  'io.gitlab': 'gitlab.com',
  'com.gitlab': 'gitlab.com',
  'org.codeberg': 'codeberg.org',
  'page.codeberg': 'codeberg.org',
};

// AppStream ids cannot hold `-`: Flathub's rule writes it as `_`.
const fold = (s: string): string => s.toLowerCase().replaceAll('-', '_');

/** Host and `owner/repo` of a catalogue source: `owner/repo` (AppImageHub's GitHub links) or a URL. */
function hostAndPath(source: string): { host: string; path: string[] } | undefined {
  if (!source.includes('://')) return { host: 'github.com', path: source.split('/') };
  try {
    const u = new URL(source);
    return { host: u.host.toLowerCase(), path: u.pathname.split('/').filter(Boolean) };
  } catch {
    return undefined;
  }
}

/** True when AppStream `id` is the forge's reverse-DNS name of repository `source`. */
export function idNamesRepository(id: string, source: string): boolean {
  const parts = id.replace(/\.desktop$/i, '').split('.');
  if (parts.length !== 4) return false;
  const forge = ID_FORGES[`${parts[0]}.${parts[1]}`.toLowerCase()];
  const repo = hostAndPath(source);
  if (!forge || !repo || repo.host !== forge || repo.path.length !== 2) return false;
  return repo.path.every((p, i) => fold(p.replace(/\.git$/, '')) === fold(parts[i + 2] ?? ''));
}

function downloadName(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    return undefined;
  }
}

/**
 * What ties `found` (the source catalogue entry `source` led to) to the file, in words; undefined
 * when nothing does and the match is only a suggestion.
 */
export function matchFit(
  insp: AdoptInspection,
  found: FoundSource,
  source: string,
  nodeArch: string,
): string | undefined {
  const file = originalFileName(basename(insp.file));
  const s = found.strategy;
  const glob = typeof s.asset_match === 'string' ? s.asset_match : undefined;
  const regex = typeof s.asset_match_regex === 'string' ? s.asset_match_regex : undefined;
  if (s.strategy === 'forge' && (glob !== undefined || regex !== undefined)) {
    if (matchingAssets([{ name: file }], { glob, regex, nodeArch }).length === 1)
      return `its asset pattern ${regex === undefined ? String(glob) : `/${regex}/`} selects ${file}`;
  }
  if (s.strategy === 'direct' && typeof s.url === 'string' && downloadName(s.url) === file)
    return `its download is named ${file}`;
  const id = insp.appStream.id;
  if (id !== undefined && idNamesRepository(id, source)) return `the AppStream id ${id} names ${source}`;
  return undefined;
}
