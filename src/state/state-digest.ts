/**
 * The digest state.json carries (its first key): a hash of the rest of the text as we wrote it,
 * with the tool's version and the validation version. When it holds, the file is exactly what a
 * run of this tool wrote from checked data, and the store skips the schema (and loading zod);
 * an edit by hand, damage or another version of the tool makes it fail, and the file is checked.
 */
import { VALIDATION_VERSION } from '../config/validated-cache.js';
import { VERSION } from '../core/version.js';

const DIGEST_LINE = /^\{\n {2}"digest": "([A-Za-z0-9_-]{43})",\n/;

function digestOf(body: string): string {
  return process
    .getBuiltinModule('node:crypto')
    .createHash('sha256')
    .update(`${VERSION}\0${VALIDATION_VERSION}\0${body}`)
    .digest('base64url');
}

/** state.json's text for `body` (JSON.stringify of the data, indented by 2), its digest first. */
export function withDigest(body: string): string {
  if (!body.startsWith('{\n')) return `${body}\n`;
  return `{\n  "digest": "${digestOf(body)}",\n${body.slice(2)}\n`;
}

/** True when `text` is what withDigest wrote, unchanged. */
export function digestHolds(text: string): boolean {
  const m = DIGEST_LINE.exec(text);
  if (!m || !text.endsWith('\n')) return false;
  return m[1] === digestOf(`{\n${text.slice(m[0].length, -1)}`);
}
