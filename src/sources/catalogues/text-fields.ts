/** Small helpers the catalogue readers share for untrusted text fields. */
import { MAX_FIELD } from './types.js';

/**
 * `text` copied out of the string it was cut from: V8 keeps a slice's whole parent alive (a
 * 400-character description would hold its 16 KiB line, thousands of times over), and a copy of
 * Latin-1 text takes one byte a character even when its parent took two.
 */
export function ownCopy(text: string): string {
  const copy = Buffer.from(text, 'utf8').toString('utf8');
  // UTF-8 cannot carry a lone surrogate: such a text is copied as it is, two bytes a character.
  return copy === text ? copy : Buffer.from(text, 'utf16le').toString('utf16le');
}

/** The first line of `value`, trimmed and cut to MAX_FIELD characters (its own copy); '' when not a string. */
export function oneLine(value: unknown): string {
  if (typeof value !== 'string') return '';
  // Split only a text with a newline: an AM line has none, and a split copies it.
  const line = value.includes('\n') ? (value.split(/\r?\n/).find((l) => l.trim() !== '') ?? '') : value;
  return ownCopy(line.trim().slice(0, MAX_FIELD));
}

const OWNER_REPO = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\/[A-Za-z0-9_.-]{1,100}$/;

/** `owner/repo` when `value` is one (a `.git` ending and slashes around it dropped), else undefined. */
export function ownerRepo(value: string): string | undefined {
  const v = value
    .trim()
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '');
  if (!OWNER_REPO.test(v) || v.split('/').some((s) => /^\.+$/.test(s))) return undefined;
  return v;
}

/** `owner/repo` of a `https://github.com/owner/repo[/releases…]` URL, else undefined. */
export function hubRepoOfUrl(url: string): string | undefined {
  const m = /^https:\/\/github\.com\/([^/?#]+)\/([^/?#]+)(?:\/releases(?:\/latest)?)?\/?$/.exec(url.trim());
  return m ? ownerRepo(`${m[1]}/${m[2]}`) : undefined;
}

/** The hub page of `owner/repo` (the inverse of hubRepoOfUrl). */
export function hubPageOf(repository: string): string {
  return `https://github.com/${repository}`;
}

/** True for an http(s) URL of reasonable length. */
export function isWebUrl(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 2000 && /^https?:\/\/[^\s]+$/i.test(value);
}
