/**
 * The JSON limits of server answers (release metadata, attestation lists): the shared bounded
 * parser (src/core/bounded-json.ts) with refusals as HTTP_* errors naming the URL.
 */
import { jsonShapeRefusal, type JsonLimits } from '../core/bounded-json.js';
import { KeeperError } from '../core/errors.js';

export type { JsonLimits } from '../core/bounded-json.js';

/** Limits for forge metadata (a page of releases with their assets fits many times over). */
export const METADATA_JSON_LIMITS: JsonLimits = { maxDepth: 64, maxValues: 1_000_000 };

/**
 * Throws HTTP_JSON_TOO_DEEP or HTTP_JSON_TOO_LARGE when `text` nests deeper or holds more values
 * than `limits`; says nothing about whether it is valid JSON (JSON.parse does that next).
 */
export function checkJsonShape(text: string, url: string, limits: JsonLimits = METADATA_JSON_LIMITS): void {
  const refused = jsonShapeRefusal(text, limits);
  if (!refused) return;
  throw new KeeperError(
    refused.reason === 'deep' ? 'HTTP_JSON_TOO_DEEP' : 'HTTP_JSON_TOO_LARGE',
    `response from ${url} ${refused.message}; refused before parsing`,
  );
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
