/**
 * Getting the attestations of one asset digest: the hub's
 * `GET {api}/repos/{owner}/{repo}/attestations/sha256:{hex}` through the source's own fetch (the
 * hub token and the same rate-limit windows as release metadata), then any bundle that is only
 * linked (`bundle_url`, another host, Snappy-compressed) fetched without credentials and with
 * bounded sizes.
 */
import * as z from 'zod';
import { parseJsonWithin, type JsonLimits } from '../../core/bounded-json.js';
import { KeeperError } from '../../core/errors.js';
import { request } from '../../http/http.js';
import type { HttpSettings } from '../../http/settings.js';
import { ProvenanceError } from './errors.js';
import { decodeSnappy } from './snappy.js';
import type { AttestationEndpoint } from '../../types/attestation-endpoint.js';

/** Attestations looked at per asset; more is a hostile or broken answer. */
export const MAX_ATTESTATIONS = 32;
/** Largest compressed blob fetched from a `bundle_url`. */
const MAX_BLOB_BYTES = 2 * 1024 * 1024;
/**
 * A Sigstore bundle is a few levels deep (envelope, verification material, log entries with their
 * inclusion proofs) and holds some hundreds of values; these limits are far above that.
 */
export const BUNDLE_JSON_LIMITS: JsonLimits = { maxDepth: 32, maxValues: 10_000 };

const Entry = z.object({
  bundle: z.record(z.string(), z.unknown()).nullish(),
  bundle_url: z.string().nullish(),
});
const Answer = z.object({ attestations: z.array(Entry) });

/** One listed attestation: the bundle itself, or where to fetch it. */
export type AttestationEntry = z.infer<typeof Entry>;

/** The attestations of a digest, or the rate-limit window that stopped the request. */
export type AttestationList =
  | { kind: 'ok'; entries: AttestationEntry[]; requests: number; url: string }
  | { kind: 'rate_limited'; retryAt: Date; message: string; requests: number };

/** Lists the attestations the hub has for `sha256:<hex>`; a 404 is an empty list. */
export async function listAttestations(host: AttestationEndpoint, hex: string): Promise<AttestationList> {
  const url = host.url(hex);
  let result;
  try {
    result = await host.fetch(url, `attestations of sha256:${hex} in ${host.owner}/${host.repo}`);
  } catch (err) {
    if (err instanceof KeeperError && err.code === 'FORGE_NOT_FOUND') {
      return { kind: 'ok', entries: [], requests: 1, url };
    }
    if (err instanceof KeeperError && err.code === 'FORGE_FORBIDDEN') {
      throw new ProvenanceError('PROVENANCE_NONE', `the hub refused to list attestations: ${err.message}`);
    }
    // A server or network failure is not evidence about the file: `warn` warns, `require` fails.
    if (err instanceof KeeperError && err.code !== 'ABORTED') {
      throw new ProvenanceError('PROVENANCE_NONE', `attestations could not be listed: ${err.message}`);
    }
    throw err;
  }
  if (result.kind === 'rate_limited') {
    return {
      kind: 'rate_limited',
      retryAt: result.retryAt,
      message: result.message,
      requests: result.requests,
    };
  }
  const parsed = Answer.safeParse(result.body);
  if (!parsed.success) {
    throw new ProvenanceError('PROVENANCE_NONE', `unexpected attestations answer from ${url}`);
  }
  return {
    kind: 'ok',
    entries: parsed.data.attestations.slice(0, MAX_ATTESTATIONS),
    requests: result.requests,
    url,
  };
}

/**
 * The serialized bundle of an entry: inline, or fetched from `bundle_url` with no credentials
 * (the URL is another host's; the hub token never goes there) and decoded from Snappy.
 */
export async function entryBundle(
  http: HttpSettings,
  entry: AttestationEntry,
  signal: AbortSignal | undefined,
): Promise<{ bundle: unknown; requests: number }> {
  if (entry.bundle) return { bundle: entry.bundle, requests: 0 };
  const url = entry.bundle_url;
  // A link with control characters or of absurd length is not one we follow.
  if (!url || url.length > 2048 || /[\s\p{Cc}]/u.test(url) || !/^https?:\/\//i.test(url)) {
    throw new ProvenanceError(
      'PROVENANCE_INVALID',
      'an attestation has neither a bundle nor a usable bundle_url',
    );
  }
  let res;
  try {
    res = await request(http, url, {
      phase: 'attestation',
      headers: { accept: 'application/octet-stream' },
      maxBodyBytes: MAX_BLOB_BYTES,
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    throw new ProvenanceError(
      'PROVENANCE_NONE',
      `the attestation bundle at ${url} could not be fetched: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (res.status !== 200) {
    throw new ProvenanceError(
      'PROVENANCE_NONE',
      `the attestation bundle at ${url} answered HTTP ${res.status}`,
    );
  }
  const json = decodeSnappy(res.body, `the attestation bundle at ${url}`);
  const parsed = parseJsonWithin(json.toString('utf8'), BUNDLE_JSON_LIMITS);
  if (!parsed.ok) {
    throw new ProvenanceError('PROVENANCE_INVALID', `the attestation bundle at ${url} ${parsed.message}`);
  }
  return { bundle: parsed.value, requests: res.requests };
}
