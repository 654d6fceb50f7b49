/**
 * Validated results of config.yml, secrets.yml, recipes and the lock file, kept under
 * $XDG_CACHE_HOME so that a file whose bytes did not change is neither parsed nor checked again:
 * the yaml library and zod are most of what reading them costs (docs/decisions.md, "Start-up").
 * Each entry is keyed by a hash of the tool's version, VALIDATION_VERSION, the file's kind and its
 * text, so a changed file, another kind or another version of the tool never finds it. Only the
 * values the schema yielded are kept, never a problem: a file with one is read in full every time.
 * No secret is stored: a secret field is kept as where its value sits in the file's text.
 */
import { join } from 'node:path';
import { readSmallFileSync } from '../core/small-file.js';
import { parseJsonWithin } from '../core/bounded-json.js';
import { VERSION } from '../core/version.js';
import { writeFileAtomic } from '../core/atomic-files.js';

/** Bump when a schema or check of these files accepts or yields anything differently. */
export const VALIDATION_VERSION = 1;

/** The cache file in the tool's cache folder. */
export const VALIDATED_CACHE_FILE = 'validated.json';
/** More entries than recipes can be found (2,000), config.yml, secrets.yml and the lock. */
export const MAX_CACHE_ENTRIES = 4096;
/** Far above 4,096 recipes' values; anything larger is not ours. */
export const MAX_CACHE_BYTES = 16 << 20;

/** Which reader and schema a file went through. */
export type CachedKind = 'config' | 'secrets' | 'recipe' | 'lock';

/** A file's validated values, with each secret field as the span of its value in the text. */
export interface CachedValues {
  values: Record<string, unknown>;
  secrets?: Record<string, [number, number]>;
}

const KEY = /^[A-Za-z0-9_-]{43}$/;
const HEADER = { format: 1, tool: VERSION, validation: VALIDATION_VERSION };

function sha256(text: string): string {
  // Lazily, like the atomic writer: a module imported by every command.
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('base64url');
}

function isEntry(v: unknown): v is CachedValues {
  if (typeof v !== 'object' || v === null) return false;
  const { values, secrets } = v as Record<string, unknown>;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return false;
  if (secrets === undefined) return true;
  return (
    typeof secrets === 'object' &&
    secrets !== null &&
    Object.values(secrets).every(
      (s) => Array.isArray(s) && s.length === 2 && s.every((n) => Number.isSafeInteger(n) && n >= 0),
    )
  );
}

/**
 * The entries of a cache file's text: its first line is the header (format, tool version,
 * validation version, SHA-256 of the rest), the rest the entries; empty when anything is off
 * (another version, damage, a shape we did not write).
 */
function parseCache(text: string): Map<string, CachedValues> {
  const entries = new Map<string, CachedValues>();
  const newline = text.indexOf('\n');
  if (newline < 0) return entries;
  const header = parseJsonWithin(text.slice(0, newline), { maxDepth: 2, maxValues: 16 });
  const body = text.slice(newline + 1);
  if (!header.ok || typeof header.value !== 'object' || header.value === null) return entries;
  const h = header.value as Record<string, unknown>;
  if (h.format !== HEADER.format || h.tool !== HEADER.tool || h.validation !== HEADER.validation)
    return entries;
  if (h.sum !== sha256(body)) return entries;
  const parsed = parseJsonWithin(body, { maxDepth: 64, maxValues: 2_000_000 });
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return entries;
  for (const [key, entry] of Object.entries(parsed.value)) {
    if (entries.size >= MAX_CACHE_ENTRIES) break;
    if (KEY.test(key) && isEntry(entry)) entries.set(key, entry);
  }
  return entries;
}

/** The validated values of files read in one run, from and into the cache file. */
export class ValidatedCache {
  private readonly used = new Map<string, CachedValues>();
  private changed = false;

  private constructor(
    private readonly dir: string,
    private readonly stored: Map<string, CachedValues>,
  ) {}

  /** The cache of `cacheDir` (empty when there is none, or it is damaged or another version's). */
  static open(cacheDir: string): ValidatedCache {
    let text = '';
    try {
      const read = readSmallFileSync(join(cacheDir, VALIDATED_CACHE_FILE), MAX_CACHE_BYTES);
      if (read.kind === 'text') text = read.text;
    } catch {
      // Missing or unreadable: a cache only saves time.
    }
    return new ValidatedCache(cacheDir, parseCache(text));
  }

  private static key(kind: CachedKind, text: string): string {
    return sha256(`${VERSION}\0${VALIDATION_VERSION}\0${kind}\0${text}`);
  }

  /** The values a file of this kind and text was validated to, secrets read back from the text. */
  get(kind: CachedKind, text: string): Record<string, unknown> | undefined {
    const key = ValidatedCache.key(kind, text);
    const entry = this.used.get(key) ?? this.stored.get(key);
    if (!entry) return undefined;
    this.used.set(key, entry);
    // A copy of the top level only: a run reads values, and changes none below it.
    const values = { ...entry.values };
    for (const [field, [start, end]] of Object.entries(entry.secrets ?? {})) {
      if (end > text.length || start > end) return undefined;
      values[field] = text.slice(start, end);
    }
    return values;
  }

  /**
   * Remembers the validated `values` of a file. Each of `secrets` (a field and the offsets of its
   * value's node in `text`) is kept as the span of its value in the text; when the value is not
   * written there as it is (escapes, folded lines), nothing is kept for the file.
   */
  put(
    kind: CachedKind,
    text: string,
    values: Record<string, unknown>,
    secrets: Record<string, readonly [number, number] | undefined> = {},
  ): void {
    const kept: Record<string, unknown> = { ...values };
    const spans: Record<string, [number, number]> = {};
    for (const [field, range] of Object.entries(secrets)) {
      const value = values[field];
      if (value === undefined) continue;
      if (typeof value !== 'string' || !range) return;
      const at = text.slice(range[0], range[1]).indexOf(value);
      if (value === '' || at < 0) return;
      spans[field] = [range[0] + at, range[0] + at + value.length];
      delete kept[field];
    }
    const entry: CachedValues = Object.keys(spans).length
      ? { values: kept, secrets: spans }
      : { values: kept };
    this.used.set(ValidatedCache.key(kind, text), JSON.parse(JSON.stringify(entry)) as CachedValues);
    this.changed = true;
  }

  /**
   * Writes the cache when this run added to it (atomically, best effort): the entries used in this
   * run first, then older ones up to MAX_CACHE_ENTRIES.
   */
  async save(): Promise<void> {
    if (!this.changed) return;
    this.changed = false;
    const all = new Map<string, CachedValues>();
    for (const [key, entry] of [...this.used, ...this.stored]) {
      if (all.size >= MAX_CACHE_ENTRIES) break;
      if (!all.has(key)) all.set(key, entry);
    }
    const body = JSON.stringify(Object.fromEntries(all));
    if (body.length > MAX_CACHE_BYTES / 2) return;
    const text = `${JSON.stringify({ ...HEADER, sum: sha256(body) })}\n${body}`;
    await writeFileAtomic(join(this.dir, VALIDATED_CACHE_FILE), text, { root: this.dir, mode: 0o600 }).catch(
      () => undefined,
    );
  }
}
