import type { IncomingHttpHeaders } from 'node:http';

/** One response header as a string (the first value when repeated); the one header getter. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A copy of request headers with lower-case names, so one name cannot appear twice. */
export function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}
