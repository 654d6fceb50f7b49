/**
 * The hub's artifact-attestation endpoint, `GET /repos/{owner}/{repo}/attestations/sha256:{hex}`:
 * bundles served inline, or (as GitHub does since July 2026) `bundle: null` plus a `bundle_url` on
 * another origin serving the bundle as raw Snappy-compressed JSON.
 */
import { compress } from 'snappyjs';
import { jsonError, jsonResponse } from './json-response.js';
import type { ApiRequest } from './api-request.js';
import type { Outgoing } from './send-body.js';

/** How the endpoint hands out bundles. */
export type AttestationMode = 'inline' | 'bundle_url';

/** One stored listing: the bundles and how to serve them. */
interface Listing {
  entries: { bundle: unknown; bundle_url?: string }[];
}

/** Attestations keyed by `owner/repo|hex` (lower case, as GitHub matches names). */
export class AttestationStore {
  private listings = new Map<string, Listing>();
  private blobs = 0;

  constructor(private readonly putBlob: (path: string, body: Buffer) => string) {}

  /**
   * Sets the attestations of a digest; `bundle_url` mode publishes each bundle as a Snappy blob.
   * A Buffer is a bundle already serialized (hostile text JSON.stringify could not produce), so
   * only `bundle_url` mode can serve it.
   */
  set(owner: string, repo: string, hex: string, bundles: readonly unknown[], mode: AttestationMode): void {
    const entries = bundles.map((bundle) => {
      if (mode === 'inline') {
        if (Buffer.isBuffer(bundle)) throw new Error('a serialized bundle is served only in bundle_url mode');
        return { bundle };
      }
      const text = Buffer.isBuffer(bundle) ? bundle : Buffer.from(JSON.stringify(bundle));
      const url = this.putBlob(`/attestation-blobs/${++this.blobs}`, compress(text));
      return { bundle: null, bundle_url: url };
    });
    this.listings.set(key(owner, repo, hex), { entries });
  }

  /** The answer for `rest` = ['sha256:<hex>'] under /repos/{owner}/{repo}/attestations/. */
  respond(req: ApiRequest, owner: string, repo: string, rest: readonly string[]): Outgoing {
    if (req.method !== 'GET') return jsonError(405, { message: 'Method Not Allowed' }, { allow: 'GET' });
    const m = /^sha256:([0-9a-f]{64})$/i.exec(decodeURIComponent(rest[0] ?? ''));
    const listing = m?.[1] && rest.length === 1 ? this.listings.get(key(owner, repo, m[1])) : undefined;
    if (!listing || listing.entries.length === 0) {
      return jsonError(404, {
        message: 'Not Found',
        documentation_url: 'https://docs.github.com/rest/repos/repos#list-attestations',
        status: '404',
      });
    }
    const attestations = listing.entries.map((e, i) => ({
      repository_id: 1,
      bundle_url: null,
      ...e,
      id: i + 1,
    }));
    return jsonResponse({ attestations }, req.headers);
  }
}

function key(owner: string, repo: string, hex: string): string {
  return `${owner}/${repo}|${hex}`.toLowerCase();
}
