/**
 * The configured catalogues: the list in config.yml, each URL's format, and the defaults when
 * config.yml names none. The readers are in readers.ts, loaded only to parse a fetched body.
 */
import { CATALOGUE_FORMATS, type CatalogueFormatSpec } from '../../config/catalogue-formats.js';
import type { CatalogueFormat, CatalogueRef } from './types.js';

/** AM's folder name for a Node architecture. */
function amArch(arch: string): string {
  return arch === 'arm64' ? 'aarch64' : arch === 'x64' ? 'x86_64' : arch;
}

/** The catalogues read when config.yml has no `catalogues`. */
export function defaultCatalogues(arch: string): CatalogueRef[] {
  return [
    { url: 'https://appimage.github.io/feed.json', format: 'appimagehub' },
    { url: `https://raw.githubusercontent.com/ivan-hc/AM/main/programs/${amArch(arch)}-apps`, format: 'am' },
  ];
}

/** A bare URL's format: the one whose `urlPath` its path matches (AM's `…-apps`, AppImageHub's `feed.json`), else our own index. */
export function formatOfUrl(url: string): CatalogueFormat {
  const path = url.split(/[?#]/)[0] ?? '';
  const specs: [string, CatalogueFormatSpec][] = Object.entries(CATALOGUE_FORMATS);
  const found = specs.find(([, spec]) => spec.urlPath?.test(path));
  return (found?.[0] as CatalogueFormat | undefined) ?? 'keeper';
}

/** The configured catalogues (config.yml `catalogues`), or the defaults. */
export function configuredCatalogues(
  field: readonly (string | CatalogueRef)[] | undefined,
  arch: string,
): CatalogueRef[] {
  if (field === undefined) return defaultCatalogues(arch);
  return field.map((c) => (typeof c === 'string' ? { url: c, format: formatOfUrl(c) } : c));
}
