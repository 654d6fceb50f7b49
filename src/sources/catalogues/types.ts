/**
 * The shape every catalogue format is read into: one entry per app, with where its releases live
 * (a repository, a script that names one, or a plain download) and what the catalogue says of it.
 */

import { CATALOGUE_FORMATS, type CatalogueFormat } from '../../config/catalogue-formats.js';

export type { CatalogueFormat };

/** One configured catalogue: where it is and how to read it. */
export interface CatalogueRef {
  url: string;
  format: CatalogueFormat;
}

/** One app as a catalogue lists it. */
export interface CatalogueEntry {
  name: string;
  /** One line, as the catalogue wrote it (not yet escaped for a terminal). */
  description: string;
  /** `owner/repo` on the hub, or a repository URL, when the catalogue names one. */
  repository?: string | undefined;
  /** A download URL, for entries without a repository. */
  download?: string | undefined;
  /** AM: the install script naming the upstream (read as text, never run). */
  script?: string | undefined;
  homepage?: string | undefined;
  license?: string | undefined;
  /** The catalogue itself says the build is a third party's. */
  repackaged?: boolean | undefined;
  /** keeper: a recipe the publisher approved (strategy fields). */
  recipe?: Record<string, unknown> | undefined;
}

/** A parsed catalogue: its entries, and what was left out and why. */
export interface ParsedCatalogue {
  entries: CatalogueEntry[];
  skipped: number;
}

/**
 * One fetched body being read: fed chunk by chunk as it arrives, so a catalogue is never held
 * whole. Either throws CATALOGUE_INVALID when the body is not its format.
 */
export interface CatalogueParser {
  push(chunk: Buffer): void;
  end(): ParsedCatalogue;
}

/** One catalogue format: turns the fetched body into entries, refusing hostile shapes. */
export interface CatalogueReader {
  format: CatalogueFormat;
  /** A short label for output (`AppImageHub`, `AM`, `keeper`). */
  label: string;
  /** A parser for the body fetched from `url`. */
  open(url: string): CatalogueParser;
  /** Parses the whole `text` fetched from `url` (through `open`); throws CATALOGUE_INVALID when it is not this format. */
  parse(text: string, url: string): ParsedCatalogue;
}

/** Each format's short label for output, from the format list; the cache-hit path loads no reader. */
export const CATALOGUE_LABELS = Object.fromEntries(
  Object.entries(CATALOGUE_FORMATS).map(([format, spec]) => [format, spec.label]),
) as Record<CatalogueFormat, string>;

/** Longest catalogue accepted, fetched or cached. */
export const MAX_CATALOGUE_BYTES = 32 * 1024 * 1024;
/** Most entries kept from one catalogue, fetched or cached. */
export const MAX_CATALOGUE_ENTRIES = 10_000;
/** Longest field kept from an entry: catalogues are not allowed to flood a terminal. */
export const MAX_FIELD = 400;
