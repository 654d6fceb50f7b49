/** A catalogue reader from its streaming parser: `parse` of a whole text is the same parser fed once. */
import {
  CATALOGUE_LABELS,
  type CatalogueFormat,
  type CatalogueParser,
  type CatalogueReader,
} from './types.js';

/** The reader of `format` whose parser `open` makes. */
export function defineReader(
  format: CatalogueFormat,
  open: (url: string) => CatalogueParser,
): CatalogueReader {
  return {
    format,
    label: CATALOGUE_LABELS[format],
    open,
    parse(text, url) {
      const parser = open(url);
      parser.push(Buffer.from(text));
      return parser.end();
    },
  };
}
