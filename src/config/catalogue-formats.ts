/**
 * The catalogue formats we read, in one list: config.yml's `format` enum, each format's label
 * (output and the `# catalogue:` line `add NAME` writes), and how a bare URL is recognised. Each
 * format's reader is keyed by the same names (src/sources/catalogues/readers.ts), so a format
 * added here fails to compile until it has one. It lives in config, the lowest layer that needs it.
 */

/** One format: its label, and the path a bare catalogue URL of this format has. */
export interface CatalogueFormatSpec {
  /** A short label for output and the recipe's origin line: one word, no spaces. */
  readonly label: string;
  /** A bare URL whose path matches is read in this format; without one, only `{url, format}` names it. */
  readonly urlPath?: RegExp;
}

/** Every catalogue format. A bare URL no pattern matches is read as `keeper`, our own index. */
export const CATALOGUE_FORMATS = {
  appimagehub: { label: 'AppImageHub', urlPath: /\/feed\.json$/ },
  am: { label: 'AM', urlPath: /\/[A-Za-z0-9_]+-apps(\.md)?$/ },
  keeper: { label: 'keeper' },
} as const satisfies Record<string, CatalogueFormatSpec>;

/** The name of a catalogue format. */
export type CatalogueFormat = keyof typeof CATALOGUE_FORMATS;

/** The format names, for config.yml's enum. */
export const CATALOGUE_FORMAT_NAMES = Object.keys(CATALOGUE_FORMATS) as [
  CatalogueFormat,
  ...CatalogueFormat[],
];
