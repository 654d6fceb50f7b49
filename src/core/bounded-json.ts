/**
 * The one JSON parser for text from outside: forge answers, block maps, attestation bundles and
 * their statements, state and lock files. A text under its byte cap can still cost gigabytes once
 * parsed: `[[[[...` nested millions deep, or millions of tiny values, each become a JS object. One
 * linear scan before JSON.parse refuses such shapes; each caller picks limits for what it reads
 * and turns a refusal into its own error (an HTTP error, "no block map", an invalid attestation).
 */

/** How deep and how many values a document may have. */
export interface JsonLimits {
  maxDepth: number;
  /** Objects, arrays and comma-separated members, counted together. */
  maxValues: number;
}

/** Why a text was not parsed: too deep, too many values, or not JSON at all. */
export type JsonRefusal = { reason: 'deep' | 'large' | 'invalid'; message: string };

/** A parsed value, or why there is none. */
export type BoundedJson = { ok: true; value: unknown } | ({ ok: false } & JsonRefusal);

/** The character codes (and UTF-8 bytes) of JSON's structure, for the scans over JSON text. */
export const JSON_CODE = {
  quote: 0x22,
  backslash: 0x5c,
  comma: 0x2c,
  colon: 0x3a,
  openBrace: 0x7b,
  openBracket: 0x5b,
  closeBrace: 0x7d,
  closeBracket: 0x5d,
} as const;
const {
  quote: QUOTE,
  backslash: BACKSLASH,
  comma: COMMA,
  openBrace: OPEN_BRACE,
  openBracket: OPEN_BRACKET,
  closeBrace: CLOSE_BRACE,
  closeBracket: CLOSE_BRACKET,
} = JSON_CODE;

/**
 * The first limit `text` breaks, or undefined; says nothing about whether it is valid JSON
 * (JSON.parse does that next). Stops at the first container past the depth or value limit, so a
 * refusal costs at most one pass over the text and no allocation.
 */
export function jsonShapeRefusal(text: string, limits: JsonLimits): JsonRefusal | undefined {
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
        return { reason: 'deep', message: `nests deeper than ${limits.maxDepth} levels` };
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    else if (c === COMMA) values++;
    if (values > limits.maxValues) {
      return { reason: 'large', message: `holds more than ${limits.maxValues} JSON values` };
    }
  }
  return undefined;
}

/** JSON.parse after the shape check; never throws. */
export function parseJsonWithin(text: string, limits: JsonLimits): BoundedJson {
  const refused = jsonShapeRefusal(text, limits);
  if (refused) return { ok: false, ...refused };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    // V8's message quotes the text, which may hold anything: the caller names the source instead.
    return { ok: false, reason: 'invalid', message: 'is not JSON' };
  }
}
