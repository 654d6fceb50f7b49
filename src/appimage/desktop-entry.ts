import { KeeperError } from '../core/errors.js';

/**
 * Desktop Entry files (freedesktop.org Desktop Entry Specification 1.5), parsed into lines that keep
 * their original text so an edited file differs from the input only where it was edited: comments,
 * blank lines, group order, key order and localized keys all survive.
 */

/** One line of a desktop entry file. Entries keep `raw` until they are edited. */
export type DesktopLine =
  | { kind: 'comment'; raw: string }
  | { kind: 'blank'; raw: string }
  | { kind: 'entry'; raw: string | undefined; key: string; locale: string | undefined; value: string };

/** A `[Group Name]` with its lines in file order. */
export interface DesktopGroup {
  name: string;
  lines: DesktopLine[];
}

/** A parsed desktop entry file. */
export interface DesktopEntry {
  /** Comments and blank lines before the first group. */
  preamble: DesktopLine[];
  groups: DesktopGroup[];
  /** Lines that were neither comments, group headers nor `Key=Value` (they are dropped on write). */
  issues: string[];
}

export const MAIN_GROUP = 'Desktop Entry';
const ENTRY_RE = /^([A-Za-z0-9-]+)(?:\[([^\]\s]+)\])?[ \t]*=[ \t]*(.*)$/;
const MAX_DESKTOP_FILE = 1 << 20;

/** Parses a desktop entry file; throws KeeperError('DESKTOP_ENTRY_INVALID') when it cannot be one. */
export function parseDesktopEntry(text: string): DesktopEntry {
  if (text.length > MAX_DESKTOP_FILE) throw invalid(`desktop file of ${text.length} characters`);
  const entry: DesktopEntry = { preamble: [], groups: [], issues: [] };
  let group: DesktopGroup | undefined;
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = body.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  lines.forEach((raw, i) => {
    const trimmed = raw.trim();
    const target = group ? group.lines : entry.preamble;
    if (trimmed === '') return target.push({ kind: 'blank', raw });
    if (trimmed.startsWith('#')) return target.push({ kind: 'comment', raw });
    if (trimmed.startsWith('[')) {
      const m = /^\[([^[\]]+)\]$/.exec(trimmed);
      if (!m?.[1] || hasControl(m[1])) {
        return entry.issues.push(`line ${i + 1}: malformed group header ${JSON.stringify(raw)}`);
      }
      const name = m[1];
      if (entry.groups.some((g) => g.name === name))
        throw invalid(`line ${i + 1}: group [${name}] appears twice`);
      group = { name, lines: [] };
      return entry.groups.push(group);
    }
    const m = ENTRY_RE.exec(raw.replace(/^[ \t]+/, ''));
    if (!m?.[1] || !group)
      return entry.issues.push(`line ${i + 1}: not a key=value line ${JSON.stringify(raw)}`);
    return group.lines.push({ kind: 'entry', raw, key: m[1], locale: m[2], value: m[3] ?? '' });
  });
  if (!entry.groups.some((g) => g.name === MAIN_GROUP)) throw invalid('no [Desktop Entry] group');
  if (entry.groups[0]?.name !== MAIN_GROUP) entry.issues.push('[Desktop Entry] is not the first group');
  return entry;
}

function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

function invalid(message: string): KeeperError {
  return new KeeperError('DESKTOP_ENTRY_INVALID', `invalid desktop entry: ${message}`);
}

/** Writes the entry back; untouched lines are byte-identical, malformed ones are dropped. */
export function serializeDesktopEntry(entry: DesktopEntry): string {
  const out: string[] = entry.preamble.map((l) => l.raw ?? '');
  for (const group of entry.groups) {
    out.push(`[${group.name}]`);
    for (const line of group.lines) {
      if (line.kind !== 'entry') out.push(line.raw);
      else out.push(line.raw ?? `${line.key}${line.locale ? `[${line.locale}]` : ''}=${line.value}`);
    }
  }
  return out.join('\n') + '\n';
}

/** The group with this name, if present. */
export function getGroup(entry: DesktopEntry, name: string): DesktopGroup | undefined {
  return entry.groups.find((g) => g.name === name);
}

/** Names of the `[Desktop Action <id>]` groups, in file order. */
export function actionGroups(entry: DesktopEntry): DesktopGroup[] {
  return entry.groups.filter((g) => g.name.startsWith('Desktop Action '));
}

/** The raw (still escaped) value of a key; `locale` selects a localized variant exactly. */
export function getRaw(group: DesktopGroup | undefined, key: string, locale?: string): string | undefined {
  for (const line of group?.lines ?? []) {
    if (line.kind === 'entry' && line.key === key && line.locale === locale) return line.value;
  }
  return undefined;
}

/** The unescaped string value of a key in a group. */
export function getString(
  entry: DesktopEntry,
  groupName: string,
  key: string,
  locale?: string,
): string | undefined {
  const raw = getRaw(getGroup(entry, groupName), key, locale);
  return raw === undefined ? undefined : unescapeString(raw);
}

/**
 * Sets a key's raw value: the first matching line is rewritten in place (keeping its position),
 * later duplicates are removed, and a missing key is appended after the group's last entry.
 */
export function setRaw(group: DesktopGroup, key: string, value: string, locale?: string): void {
  let found = false;
  group.lines = group.lines.filter((line) => {
    if (line.kind !== 'entry' || line.key !== key || line.locale !== locale) return true;
    if (found) return false;
    found = true;
    line.value = value;
    line.raw = undefined;
    return true;
  });
  if (found) return;
  let at = group.lines.length;
  while (at > 0 && group.lines[at - 1]?.kind === 'blank') at--;
  group.lines.splice(at, 0, { kind: 'entry', raw: undefined, key, locale, value });
}

/** Sets a string value, escaping it as the spec requires. */
export function setString(group: DesktopGroup, key: string, value: string, locale?: string): void {
  setRaw(group, key, escapeString(value), locale);
}

/** Removes a key; `allLocales` also removes its localized variants, `onlyLocales` only those. */
export function removeKey(
  group: DesktopGroup,
  key: string,
  opts: { allLocales?: boolean; onlyLocales?: boolean } = {},
): void {
  group.lines = group.lines.filter((line) => {
    if (line.kind !== 'entry' || line.key !== key) return true;
    if (opts.onlyLocales) return line.locale === undefined;
    return !(opts.allLocales || line.locale === undefined);
  });
}

/** Undoes the string escapes `\s`, `\n`, `\t`, `\r` and `\\` (unknown escapes are kept as written). */
export function unescapeString(raw: string): string {
  return raw.replace(/\\([sntr\\])/g, (_m, c: string) =>
    c === 's' ? ' ' : c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : '\\',
  );
}

/** Escapes a string value: backslashes and control characters; a leading space becomes `\s`. */
export function escapeString(value: string): string {
  const escaped = value.replace(/[\\\n\t\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\t' ? '\\t' : '\\r',
  );
  return escaped.startsWith(' ') ? `\\s${escaped.slice(1)}` : escaped;
}

/** Field codes the spec defines (plus the deprecated ones, which are kept as found). */
const FIELD_CODE_RE = /^%[fFuUickdDnNvm]$/;

/** True for a whole-argument field code such as `%U`. */
export function isFieldCode(arg: string): boolean {
  return FIELD_CODE_RE.test(arg);
}

/**
 * Splits an (already string-unescaped) Exec value into arguments per the spec: arguments are
 * separated by spaces; a double-quoted argument may contain spaces, and inside quotes a backslash
 * escapes `"`, `` ` ``, `$` and `\`. Field codes and `%%` are returned as written.
 */
export function tokenizeExec(value: string): string[] {
  const args: string[] = [];
  let cur = '';
  let inArg = false;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i] ?? '';
    if (quoted) {
      if (c === '\\' && i + 1 < value.length && '"`$\\'.includes(value[i + 1] ?? '')) {
        cur += value[++i];
      } else if (c === '"') {
        quoted = false;
      } else {
        cur += c;
      }
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n') {
      if (inArg) args.push(cur);
      cur = '';
      inArg = false;
    } else if (c === '"') {
      quoted = true;
      inArg = true;
    } else {
      cur += c;
      inArg = true;
    }
  }
  if (quoted)
    throw new KeeperError(
      'DESKTOP_EXEC_INVALID',
      `unterminated quote in Exec value ${JSON.stringify(value)}`,
    );
  if (inArg) args.push(cur);
  return args;
}

// The spec's reserved characters: an argument holding any of them must be quoted.
const RESERVED_RE = /[\s"'\\><~|&;$*?#()`]/;

/** Quotes one argument when the spec requires it (field codes are emitted verbatim). */
export function quoteExecArg(arg: string): string {
  if (isFieldCode(arg)) return arg;
  if (arg !== '' && !RESERVED_RE.test(arg)) return arg;
  return `"${arg.replace(/["`$\\]/g, (c) => `\\${c}`)}"`;
}

/** Joins arguments into an Exec value (before string escaping). */
export function joinExec(args: string[]): string {
  return args.map(quoteExecArg).join(' ');
}

/** Escapes `%` in a literal argument (user-supplied flags, env values) so it is not a field code. */
export function escapeFieldCodes(literal: string): string {
  return literal.replace(/%/g, '%%');
}

/** Reads an Exec-like key of a group as arguments. */
export function getExec(group: DesktopGroup | undefined, key = 'Exec'): string[] | undefined {
  const raw = getRaw(group, key);
  return raw === undefined ? undefined : tokenizeExec(unescapeString(raw));
}

/** Writes arguments into an Exec-like key, quoting then string-escaping as the spec orders. */
export function setExec(group: DesktopGroup, args: string[], key = 'Exec'): void {
  setString(group, key, joinExec(args));
}
