/**
 * The network half of a catalogue load: a conditional GET against the cached copy's validators,
 * the fetched body parsed by its format's reader, and the new record written. Loaded by cache.ts
 * only when a copy is due (24 h old, --refresh, none yet), so a search from the cache loads neither
 * the HTTP client (proxy and CA code) nor the readers' zod schemas.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from '../../context/context.js';
import { toKeeperError } from '../../core/errors.js';
import { request } from '../../http/http.js';
import { writeFileAtomic } from '../../core/atomic-files.js';
import { cacheDirOf, encodeCache, keptValidator, type CacheRecord } from './cache-record.js';
import { readerFor } from './readers.js';
import { MAX_CATALOGUE_BYTES, type CatalogueRef } from './types.js';

/** What a revalidation gave: a record to use (304 or 200), or why the network failed. */
export type Revalidation =
  { ok: true; via: 'not-modified' | 'fetched'; rec: CacheRecord } | { ok: false; failure: string };

async function writeCache(ctx: Context, ref: CatalogueRef, path: string, rec: CacheRecord): Promise<void> {
  await writeFileAtomic(path, encodeCache(ref, rec), { root: ctx.paths.cacheDir, mode: 0o600 });
  // The first layout's file, named by the URL's SHA-256, is replaced by this one: not left behind.
  // writeFileAtomic has just checked the folder; rm removes a link itself, never its target.
  const sha = process.getBuiltinModule('node:crypto').createHash('sha256').update(ref.url).digest('hex');
  await rm(join(cacheDirOf(ctx), `${sha.slice(0, 24)}.json`), { force: true }).catch(() => undefined);
}

/** Asks for `ref` again (conditionally when `cached` has validators) and keeps a good answer at `path`. */
export async function revalidateCatalogue(
  ctx: Context,
  ref: CatalogueRef,
  path: string,
  cached: CacheRecord | undefined,
  signal: AbortSignal | undefined,
): Promise<Revalidation> {
  const headers: Record<string, string> = {};
  if (cached?.etag) headers['if-none-match'] = cached.etag;
  else if (cached?.lastModified) headers['if-modified-since'] = cached.lastModified;
  const now = ctx.now().toISOString();
  // A good answer is parsed as it arrives, never held whole; an error page is not read as one.
  const parser = readerFor(ref.format).open(ref.url);
  const ok = (status: number): boolean => status >= 200 && status < 300;
  try {
    const res = await request(ctx.http, ref.url, {
      headers,
      maxBodyBytes: MAX_CATALOGUE_BYTES,
      signal,
      timeoutMs: 60_000,
      sink: (status) => (ok(status) ? (chunk) => parser.push(chunk) : undefined),
    });
    if (res.status === 304 && cached) {
      const rec = { ...cached, fetchedAt: now };
      await writeCache(ctx, ref, path, rec);
      return { ok: true, via: 'not-modified', rec };
    }
    if (ok(res.status)) {
      // Parsed before it is kept: a broken answer must not replace a good copy.
      const p = parser.end();
      const rec: CacheRecord = {
        // A validator the record could not keep would make every later read refuse the copy.
        etag: keptValidator(res.headers.etag),
        lastModified: keptValidator(res.headers['last-modified']),
        fetchedAt: now,
        skipped: p.skipped,
        entries: p.entries,
      };
      await writeCache(ctx, ref, path, rec);
      return { ok: true, via: 'fetched', rec };
    }
    return { ok: false, failure: `answered HTTP ${res.status}` };
  } catch (err) {
    const e = toKeeperError(err);
    if (e.code === 'INTERRUPTED' || signal?.aborted) throw err;
    return { ok: false, failure: e.message };
  }
}
