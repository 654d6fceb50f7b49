/**
 * Bounds on the JSON we parse from servers. A body under the 16 MiB cap can still cost hundreds
 * of MB once parsed: `[[[[...` nested millions deep, or millions of tiny values, each become a JS
 * object. One linear scan before JSON.parse refuses such shapes; real release metadata is a few
 * levels deep and holds some tens of thousands of values.
 */
import { KeeperError } from '../core/errors.js';

/** How deep and how many values a metadata document may have. */
export interface JsonLimits {
  maxDepth: number;
  /** Objects, arrays and comma-separated members, counted together. */
  maxValues: number;
}

/** Limits for forge metadata (a page of releases with their assets fits many times over). */
export const METADATA_JSON_LIMITS: JsonLimits = { maxDepth: 64, maxValues: 1_000_000 };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Throws HTTP_JSON_TOO_DEEP or HTTP_JSON_TOO_LARGE when `text` nests deeper or holds more values
 * than `limits`; says nothing about whether it is valid JSON (JSON.parse does that next).
 */
export function checkJsonShape(text: string, url: string, limits: JsonLimits = METADATA_JSON_LIMITS): void {
  let depth = 0;
  let values = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      values++;
      if (++depth > limits.maxDepth) {
        throw new KeeperError(
          'HTTP_JSON_TOO_DEEP',
          `response from ${url} nests deeper than ${limits.maxDepth} levels; refused before parsing`,
        );
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    else if (c === COMMA) values++;
    if (values > limits.maxValues) {
      throw new KeeperError(
        'HTTP_JSON_TOO_LARGE',
        `response from ${url} holds more than ${limits.maxValues} JSON values; refused before parsing`,
      );
    }
  }
}

/** JSON.parse after the shape check; HTTP_BAD_JSON (naming the URL) when the text is not JSON. */
export function parseBoundedJson(text: string, url: string, status?: number): unknown {
  checkJsonShape(text, url);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const suffix = status === undefined ? '' : ` (HTTP ${status})`;
    throw new KeeperError('HTTP_BAD_JSON', `response from ${url} is not JSON${suffix}`, { cause: err });
  }
}
