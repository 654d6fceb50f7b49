/**
 * Public shapes of the forge simulator. Other areas code against these names, so changes here
 * are additive only.
 */
import type { SimForgeControls } from './forges.js';

/** Options for `startSim`. */
export interface SimOptions {
  /** Loopback address to bind (default 127.0.0.1). */
  host?: string;
  /** Port of the main origin (default: any free port). */
  port?: number;
  /** Port of the second origin (default: any free port). */
  secondPort?: number;
  /** Path prefix of the hub REST API, e.g. '/api/v3' for an enterprise instance (default ''). */
  hubApiPrefix?: string;
  /** Web base used to build hub `html_url` values (default: the origin serving the request). */
  hubWebBase?: string;
  /** Web base used to build lab `_links` values (default: the origin serving the request). */
  labWebBase?: string;
  /** Called for every request as it arrives (after it is added to `requests`). */
  onRequest?: (request: RecordedRequest) => void;
  /** Lab `releases/permalink/latest` answers 302 to the release, as GitLab does (default true). */
  labPermalinkRedirect?: boolean;
  /** Web base used to build gitea `html_url` values (default: the origin serving the request). */
  giteaWebBase?: string;
  /** Serve HTTPS with this PEM key and certificate (both origins): the sim's URLs become https://. */
  tls?: { key: string; cert: string };
}

/** Which of the sim's listening servers received a request. */
export type SimOrigin = 'main' | 'second';

/** One request as the sim received it. */
export interface RecordedRequest {
  origin: SimOrigin;
  method: string;
  /** Path and query exactly as received. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Response metadata of a served asset. */
export interface AssetOptions {
  /** Default: strong ETag from the content hash (Buffer), size+mtime (file) or size+seed; false = no ETag. */
  etag?: string | false;
  /** Default: the time of putAsset; false = no Last-Modified header. */
  lastModified?: Date | false;
  /** Default application/octet-stream. */
  contentType?: string;
}

/**
 * Content of an asset: bytes in memory, a file streamed from disk, or deterministic pseudo-random
 * bytes generated on the fly (see `generatedBytes`).
 */
export type AssetBody = Buffer | { file: string } | { size: number; seed: number };

/** One release as the sim stores it; each forge renders its own JSON shape from it. */
export interface SimRelease {
  tag: string;
  name?: string;
  prerelease?: boolean;
  draft?: boolean;
  /** Hub only: the release's `immutable` flag (its assets can no longer change). */
  immutable?: boolean;
  publishedAt?: Date;
  body?: string;
  assets: SimReleaseAsset[];
}

/** One downloadable file of a release. */
export interface SimReleaseAsset {
  name: string;
  /** Absolute download URL, usually the return value of putAsset. */
  url: string;
  /** Size in bytes; default: the size of the asset served at `url` by this sim, else 0. */
  size?: number;
  /** 'sha256:<hex>' (hub only). */
  digest?: string;
  /** Lab only: a distinct `direct_asset_url` (default: same as `url`). */
  directAssetUrl?: string;
  /** Default application/octet-stream. */
  contentType?: string;
}

/** Kinds of rate-limit answers a fault can produce. */
export type RateLimitKind =
  '403-remaining' | '429-retry-after-seconds' | '429-retry-after-date' | '429-ratelimit-reset';

/** A misbehaviour injected into matching requests (see docs/simulator.md). */
export interface Fault {
  /** Apply to the next N matching requests, then stop (default: forever). */
  times?: number;
  /** Only these methods (default all). */
  methods?: string[];
  /** Delay before the response head. */
  latencyMs?: number;
  /** Per-response body throttle. */
  throttleBytesPerSec?: number;
  /** Respond with this status and a small body instead. */
  status?: number;
  rateLimit?: { kind: RateLimitKind; resetInSeconds: number };
  /** Destroy the socket after sending N body bytes. */
  dropAfterBytes?: number;
  /** Stop sending (keep the socket open) after N body bytes. */
  stallAfterBytes?: number;
  /** Send N fewer bytes than Content-Length, then end the response and close the connection. */
  shortBody?: number;
  /** Send the body without Content-Length (chunked transfer encoding), so its size is unannounced. */
  chunked?: boolean;
  /** Answer Range requests with 200 and the full body. */
  ignoreRange?: boolean;
  /** No Accept-Ranges header, ignore Range. */
  noRanges?: boolean;
  /** Never multipart: a multi-range request gets 206 with its first range only (as some CDNs do). */
  firstRangeOnly?: boolean;
  /** 206 with a Content-Range that does not match the request. */
  wrongContentRange?: boolean;
  /** HEAD -> 405. */
  headRefused?: boolean;
  /** Replace the body (200 unless `status` is set), served with `contentType`. */
  body?: Buffer | string;
  contentType?: string;
}

/** Optional request budget of the hub API, per origin and per client. */
export interface RateLimitOptions {
  /** Requests per window without Authorization. */
  limit: number;
  windowSeconds: number;
  /** Requests per window for each distinct Authorization value (default: limit * 10). */
  authLimit?: number;
}

/** Hub (GitHub-style) release metadata controls. */
export interface SimHub {
  /** Publish `release` as the newest release of owner/repo (replacing one with the same tag). */
  setLatest(owner: string, repo: string, release: SimRelease): void;
  /** Replace all releases of owner/repo; the list is newest first. */
  setReleases(owner: string, repo: string, releases: SimRelease[]): void;
  /** Mark owner/repo archived (`archived: true` at `GET /repos/{owner}/{repo}`), or not. */
  setArchived(owner: string, repo: string, archived: boolean): void;
  /**
   * Serve these Sigstore bundles (serialized JSON) at `/repos/{owner}/{repo}/attestations/sha256:{hex}`:
   * inline, or as `bundle_url` links to raw Snappy blobs on the second origin. An empty list is a 404.
   * A Buffer in `bundles` is served as it is (its bytes Snappy-packed), in `bundle_url` mode only.
   */
  setAttestations(
    owner: string,
    repo: string,
    sha256Hex: string,
    bundles: readonly unknown[],
    mode?: 'inline' | 'bundle_url',
  ): void;
}

/** Lab (GitLab-style) release metadata controls. */
export interface SimLab {
  /** Publish `release` as the newest release of the project ('group/sub/project'). */
  setLatest(projectPath: string, release: SimRelease): void;
  /** Replace all releases of the project; the list is newest first. */
  setReleases(projectPath: string, releases: SimRelease[]): void;
  /** Mark the project archived (`archived: true` at `GET /api/v4/projects/{id}`), or not. */
  setArchived(projectPath: string, archived: boolean): void;
}

/** Gitea/Forgejo release metadata controls. */
export interface SimGitea {
  /** What /swagger.v1.json announces; default 'gitea' once a gitea release exists, else 'none'. */
  setFlavor(flavor: 'gitea' | 'forgejo' | 'none'): void;
  /** Publish `release` as the newest release of owner/repo. */
  setLatest(owner: string, repo: string, release: SimRelease): void;
  /** Replace all releases of owner/repo; the list is newest first. */
  setReleases(owner: string, repo: string, releases: SimRelease[]): void;
  /** Mark owner/repo archived (`archived: true` at `GET /api/v1/repos/{owner}/{repo}`), or not. */
  setArchived(owner: string, repo: string, archived: boolean): void;
}

/** A running simulator; `hub`, `lab`, `gitea` (each forge of sim/forges.ts) are its forges' controls. */
export interface Sim extends SimForgeControls {
  /** 'http://127.0.0.1:PORT', the main origin. */
  url: string;
  /** A second origin (another port) for cross-origin redirect targets and the proxy. */
  secondUrl: string;
  /** Hub API base on the main origin (`url` + hubApiPrefix). */
  hubApiUrl: string;
  /** Lab API base on the main origin (`url` + '/api/v4'). */
  labApiUrl: string;
  requests: RecordedRequest[];
  clearRequests(): void;
  /** Serve GET/HEAD of `path` on the main origin; returns the absolute URL. */
  putAsset(path: string, body: AssetBody, options?: AssetOptions): string;
  /** Same on the second origin. */
  putSecondAsset(path: string, body: AssetBody, options?: AssetOptions): string;
  /** `path` on the main origin redirects to `target`. */
  redirect(path: string, target: string, status?: 301 | 302 | 303 | 307 | 308): void;
  /** `path` on the second origin redirects to `target`. */
  redirectSecond(path: string, target: string, status?: 301 | 302 | 303 | 307 | 308): void;
  /** Stop serving `path` (asset or redirect) on the main origin. */
  removeAsset(path: string): void;
  /** Stop serving `path` (asset or redirect) on the second origin. */
  removeSecondAsset(path: string): void;
  /** Prefix such that `${prefix}${absoluteUrl}` is fetched by the sim from that loopback URL. */
  proxyPrefix(): string;
  fault(pathOrPattern: string | RegExp, fault: Fault): void;
  clearFaults(): void;
  /** Enable (or with null disable) the hub API request budget. */
  setRateLimit(options: RateLimitOptions | null): void;
  /** Refill every rate-limit budget now. */
  resetRateLimit(): void;
  stop(): Promise<void>;
}
