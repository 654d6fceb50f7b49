/**
 * The one check of every URL a user or a file hands us to keep (recipe and config URL fields, `add`,
 * what `adopt` and `add` write into recipes): an http(s) URL with a host, without control characters
 * (a terminal acts on them, YAML and the WHATWG parser silently drop some) and without credentials
 * (`user:password@` would be stored in the recipe, printed, and sent as Basic auth to every host).
 */
import { escapeControlChar, firstControlChar } from '../core/control-chars.js';

/** What is wrong with a URL field's value; `code` is stable, `message` never repeats credentials. */
export interface UrlFieldProblem {
  code: 'URL_INVALID' | 'URL_CONTROL_CHARS' | 'URL_CREDENTIALS';
  message: string;
  hint?: string;
}

export const URL_CREDENTIALS_HINT =
  'remove user:password@ from the URL; a hub token belongs in HUB_TOKEN or secrets.yml (hub_token), never in a URL';

/** The problem of `value` as an http(s) URL field, or undefined when it may be kept and requested. */
export function urlFieldProblem(value: string): UrlFieldProblem | undefined {
  const checked = checkUrlField(value);
  return checked instanceof URL ? undefined : checked;
}

/** `value` (trimmed) parsed, when it may be kept and requested; otherwise its problem. */
export function checkUrlField(value: string): URL | UrlFieldProblem {
  const at = firstControlChar(value);
  if (at !== -1) {
    return {
      code: 'URL_CONTROL_CHARS',
      message: `must not contain control characters (${escapeControlChar(value.charAt(at))} at character ${at + 1})`,
    };
  }
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    return { code: 'URL_INVALID', message: 'must be an http:// or https:// URL' };
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.hostname === '') {
    return { code: 'URL_INVALID', message: 'must be an http:// or https:// URL' };
  }
  if (u.username !== '' || u.password !== '') {
    return {
      code: 'URL_CREDENTIALS',
      message: `must not carry credentials (user:password@): ${redactUrl(value)}`,
      hint: URL_CREDENTIALS_HINT,
    };
  }
  return u;
}

/** `value` fit to show: its userinfo replaced by `***`, control characters escaped. */
export function redactUrl(value: string): string {
  const shown = value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
  return [...shown].map((c) => (firstControlChar(c) === -1 ? c : escapeControlChar(c))).join('');
}
