/**
 * Getting the attestations of one asset digest: the hub's
 * `GET {api}/repos/{owner}/{repo}/attestations/sha256:{hex}` (with the hub token and the same
 * rate-limit windows as release metadata), then any bundle that is only linked (`bundle_url`,
 * another host, Snappy-compressed) fetched without credentials and with bounded sizes.
 */
import * as z from 'zod';
import type { AppSettings } from '../../config/types.js';
import { KeeperError } from '../../core/errors.js';
import type { HubRepo } from '../../sources/forge/hub.js';
import { fetchMetadata } from '../../sources/forge/metadata.js';
import { hubApiHeaders } from '../../sources/forge/token.js';
import { request } from '../../http/http.js';
import type { HttpSettings } from '../../http/settings.js';
import type { ResolveDeps } from '../../sources/types.js';
import { ProvenanceError } from './errors.js';
import { decodeSnappy } from './snappy.js';

/** Attestations looked at per asset; more is a hostile or broken answer. */
export const MAX_ATTESTATIONS = 32;
/** Largest compressed blob fetched from a `bundle_url`. */
const MAX_BLOB_BYTES = 2 * 1024 * 1024;

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

/** The attestations endpoint of a digest. */
export function attestationsUrl(repo: HubRepo, hex: string): string {
  return `${repo.apiBase}/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}/attestations/sha256:${hex}`;
}

/** Lists the attestations the hub has for `sha256:<hex>`; a 404 is an empty list. */
export async function listAttestations(
  repo: HubRepo,
  hex: string,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<AttestationList> {
  const url = attestationsUrl(repo, hex);
  let result;
  try {
    result = await fetchMetadata(
      {
        url,
        headers: hubApiHeaders(url, settings),
        credentialsUnder: repo.apiBase,
        conditional: false,
        phase: 'attestation',
        what: `attestations of sha256:${hex} in ${repo.owner}/${repo.repo}`,
      },
      settings,
      deps,
    );
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
  if (result.kind === 'rate_limited') return result;
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
  try {
    return { bundle: JSON.parse(json.toString('utf8')) as unknown, requests: res.requests };
  } catch {
    throw new ProvenanceError('PROVENANCE_INVALID', `the attestation bundle at ${url} is not JSON`);
  }
}
