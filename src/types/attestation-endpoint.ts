/**
 * Where the source of an asset publishes its attestations: the repository, the endpoint listing the
 * attestations of a digest, and a fetch of it that keeps the source's token rule and rate-limit
 * windows. The hub source implements it (src/sources/forge/attestations.ts) and the provenance
 * stage reads through it (src/trust/provenance/): declared once, at the bottom of the layering, so
 * neither depends on the other.
 */
export interface AttestationEndpoint {
  readonly owner: string;
  readonly repo: string;
  /** `GET` URL listing the attestations of `sha256:<hex>`. */
  url(hex: string): string;
  /** Fetches `url` as JSON; throws KeeperError (FORGE_NOT_FOUND, FORGE_FORBIDDEN, ...) like any metadata request. */
  fetch(
    url: string,
    what: string,
  ): Promise<
    | { kind: 'ok'; body: unknown; requests: number }
    | { kind: 'rate_limited'; retryAt: Date; message: string; requests: number }
  >;
}
