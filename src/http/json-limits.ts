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
  if (looksLikeHtml(text)) throw htmlPageError(url);
  checkJsonShape(text, url);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const suffix = status === undefined ? '' : ` (HTTP ${status})`;
    throw new KeeperError('HTTP_BAD_JSON', `response from ${url} is not JSON${suffix}`, { cause: err });
  }
}

/** Whether a body that should be JSON is an HTML page (it starts with a doctype or a tag). */
export function looksLikeHtml(text: string): boolean {
  return /^\s*<(!doctype\s+html|html|head|body|!--|meta|title)\b/i.test(text.slice(0, 1024));
}

/**
 * HTTP_HTML_PAGE: the one-line error for an HTML page where JSON was expected, naming the host and
 * the usual causes; the parser's "Unexpected token '<'" would only repeat it.
 */
export function htmlPageError(url: string): KeeperError {
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // Keep the text as given.
  }
  return new KeeperError(
    'HTTP_HTML_PAGE',
    `got an HTML page from ${host} (a captive portal, a proxy's login page, or a wrong API URL?)`,
    { details: { url } },
  );
}
