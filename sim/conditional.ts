/** Evaluation of conditional request headers (RFC 9110 section 13) against a response's validators. */

/** Validators of a representation. */
export interface Validators {
  etag: string | undefined;
  lastModified: Date | undefined;
}

function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** True when a GET/HEAD should be answered 304 Not Modified. */
export function isNotModified(
  headers: Record<string, string | string[] | undefined>,
  validators: Validators,
): boolean {
  const inm = header(headers['if-none-match']);
  if (inm !== undefined) {
    if (!validators.etag) return false;
    if (inm.trim() === '*') return true;
    const wanted = opaque(validators.etag);
    return inm.split(',').some((t) => opaque(t.trim()) === wanted);
  }
  const ims = header(headers['if-modified-since']);
  if (ims !== undefined && validators.lastModified) {
    const since = Date.parse(ims);
    if (Number.isNaN(since)) return false;
    return seconds(validators.lastModified) <= Math.floor(since / 1000);
  }
  return false;
}

/** True when an If-Range header allows serving the requested ranges (absent header: true). */
export function ifRangeMatches(ifRange: string | undefined, validators: Validators): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) {
    // If-Range needs a strong comparison: weak tags never match.
    return !value.startsWith('W/') && validators.etag !== undefined && !validators.etag.startsWith('W/')
      ? value === validators.etag
      : false;
  }
  const date = Date.parse(value);
  if (Number.isNaN(date) || !validators.lastModified) return false;
  return seconds(validators.lastModified) === Math.floor(date / 1000);
}
