/**
 * The contract between the resolvers (forge, direct, script) and the engine: what a resolution
 * is, how a run reports a rate limit, and the small persisted store the resolvers read and write.
 */
import type { Context } from '../context/context.js';
import type { CachedResponse, ConditionalCache } from '../http/conditional.js';
import type { RateLimitWindow } from '../state/types.js';

/** What one strategy found as the latest release of an app. */
export interface Resolution {
  /**
   * forge: the release tag; script: stdout line 2; direct: provisional (the Last-Modified date as
   * YYYY-MM-DD or `etag-<8 hex>`), replaced by the engine with X-AppImage-Version after download.
   */
  version: string;
  /**
   * What state compares to detect a change. forge: tag + asset name + (digest, or asset id and
   * updated_at when known) so a moving tag such as `continuous` with a new asset is seen as new;
   * direct: the header value chosen by check_method; script: URL + version.
   */
  identity: string;
  /** Download URL (for direct: the final URL after redirects). */
  url: string;
  assetName: string;
  size?: number | undefined;
  /** Lower-case hex SHA-256 the forge published for the asset. */
  sha256?: string | undefined;
  /** A checksum sidecar of the same release (`<asset>.sha256`, `SHA256SUMS`, `latest-linux.yml`, ...). */
  checksumUrl?: string | undefined;
  /** How to read it: SHA-256 listings (default) or electron-builder's YAML with base64 SHA-512. */
  checksumFormat?: 'sums' | 'electron-builder' | undefined;
  /** A `<asset>.zsync` asset of the same release. */
  zsyncUrl?: string | undefined;
  /** ETag or Last-Modified of the asset, for If-Range. */
  validator?: string | undefined;
  /** Human release page, when the forge gives one. */
  releaseUrl?: string | undefined;
  /** forge (hub): the release is immutable, so a release attestation exists for its assets. */
  immutable?: boolean | undefined;
  /** forge: ISO time the release was published, when known. */
  publishedAt?: string | undefined;
  /**
   * When the release came out, as the source says it (raw text from a server: it may be missing,
   * unparseable or in the future): a forge's publication time, a direct URL's Last-Modified.
   * Without it the engine counts a release's age from the first time it saw the identity.
   */
  releasedAt?: ReleaseTime | undefined;
  /** forge: the proxy base the release metadata came through (its digest is then not proof). */
  viaProxy?: string | undefined;
}

/** A release time reported by a source, and what it is (for messages: `published 5 h ago`). */
export interface ReleaseTime {
  at: string;
  what: 'published' | 'last modified';
}

/** Result of resolving one app: a resolution, or a rate-limit window that stopped it. */
export type ResolveOutcome =
  | { kind: 'resolved'; resolution: Resolution; requests: number; notModified: boolean }
  | { kind: 'rate_limited'; retryAt: Date; host: string; message: string };

export type { CachedResponse };

/** An open rate-limit window of one app; state stores it (see state/types.ts). */
export type { RateLimitWindow };

/** Self-hosted forge flavours detected through `/swagger.v1.json`. */
export type DetectedForgeKind = 'gitea' | 'forgejo';

/** Resolver data persisted by the engine in state.json between runs. */
export interface ResolverStore extends ConditionalCache {
  getForgeKind(origin: string): DetectedForgeKind | undefined;
  setForgeKind(origin: string, kind: DetectedForgeKind): void;
  /** Keys are `app:<app name>`. */
  getRateLimit(key: string): RateLimitWindow | undefined;
  setRateLimit(key: string, window: RateLimitWindow): void;
  clearRateLimit(key: string): void;
}

/** Everything a resolver needs besides the app's settings. */
export interface ResolveDeps {
  ctx: Context;
  store: ResolverStore;
  /** Installed version, passed to scripts as APP_VERSION. */
  installedVersion?: string | undefined;
  /** One per run: recipes sharing a repository cost one request. */
  memo: Map<string, Promise<unknown>>;
  /**
   * Built-in proxy bases used for `hub_proxy_prefix: all`; defaults to
   * APPIMAGE_KEEPER_PROXY_BUILTINS (comma separated) or the documented public list.
   */
  proxyBuiltins?: readonly string[] | undefined;
  /** Aborts the run's requests and scripts (Ctrl-C, SIGTERM). */
  signal?: AbortSignal | undefined;
  /** `--force`: send requests even while a rate-limit window is open. */
  force?: boolean | undefined;
  /**
   * false for a fetch that belongs to no app (add's and adopt's lookups): no per-app rate-limit
   * window is honoured, opened or closed. The conditional cache, keyed by URL, still applies.
   */
  appWindows?: boolean | undefined;
}
