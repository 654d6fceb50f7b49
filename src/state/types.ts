import type { CachedResponse } from './cached-response.js';

/** A verified attestation of an installed asset (absent when provenance is off or nothing verified). */
export interface ProvenanceRecord {
  /** `sha256:<hex>` of the asset the attestations name. */
  digest: string;
  /** Build provenance, when it verified. */
  build?:
    | {
        predicateType: string;
        /** Certificate SAN: the workflow that signed, `https://github.com/o/r/.github/workflows/f.yml@ref`. */
        signerWorkflow: string;
        sourceRepository: string;
        sourceCommit?: string | undefined;
        sourceRef?: string | undefined;
      }
    | undefined;
  /** Release attestation, when it verified. */
  release?: { predicateType: string; signer: string; tag: string } | undefined;
  verifiedAt: string;
}

/** What we installed for one app; `remove` and `rollback` undo exactly this. */
export interface InstalledRecord {
  version: string;
  /** The remote identity compared on the next run (tag+asset, header value, script URL+version). */
  identity: string;
  /** Absolute path of the installed AppImage. */
  file: string;
  url: string;
  size: number;
  sha256: string;
  installedAt: string;
  /** Attestations verified before this file was downloaded. */
  provenance?: ProvenanceRecord | undefined;
  /** forge: when the installed release was published, so a proxy cannot offer an older one. */
  publishedAt?: string | undefined;
}

/** A release asset we installed once; a later different digest or size under the same tag is an alarm. */
export interface ReleaseAssetRecord {
  sha256?: string | undefined;
  size?: number | undefined;
  installedAt: string;
}

/** Desktop entry and icons we wrote for an app. */
export interface IntegrationState {
  desktopId: string;
  desktopFile: string;
  icons: string[];
  /** What the installed AppImage needs to start, and the launch fixes its entry carries. */
  launch?: LaunchRecord | undefined;
}

/** Launch traits of the installed file (read once per install) and the fixes written for them. */
export interface LaunchRecord {
  /** In-image path marking an Electron app, when it is one. */
  electron?: string | undefined;
  /** The runtime loads libfuse.so.2. */
  libfuse2: boolean;
  /** Ids of the fixes the desktop entry carries (`no-sandbox`, `extract-and-run`). */
  fixes: string[];
}

/** The OpenPGP key an app's AppImages must be signed with (key continuity), and the last signature seen. */
export interface SignatureState {
  /** v4 fingerprint of the pinned primary key: 40 upper-case hex digits. */
  fingerprint: string;
  /** `first-install`: the first signed install's own key; `signing_key`: the recipe; `adopt`: an adopted file. */
  pinnedBy: 'first-install' | 'signing_key' | 'adopt';
  pinnedAt: string;
  /** Base64 body of the pinned key's public key packet: updates verify with it, not with the new file's key. */
  publicKey?: string | undefined;
  /** The last embedded signature verified for an installed version. */
  lastVerified?:
    | {
        version: string;
        /** Key id of the key that signed (the primary or one of its signing subkeys). */
        signerKeyId: string;
        hashAlgorithm: string;
        mode: 'binary' | 'text';
        signedAt: string | null;
        at: string;
      }
    | undefined;
}

/** Per-app state. */
export interface AppState {
  strategy: string;
  installed?: InstalledRecord | undefined;
  /** Kept for rollback; lives outside the naming pattern. */
  previous?: (InstalledRecord & { integration?: IntegrationState | undefined }) | undefined;
  integration?: IntegrationState | undefined;
  symlink?: string | undefined;
  /** Held apps are skipped by update until `update --force` or `unhold`. */
  hold?: boolean | undefined;
  /** Set by `remove` (ISO time): nothing is installed and `update` skips the app until it is named. */
  removedAt?: string | undefined;
  lastCheck?: string | undefined;
  lastUpdate?: string | undefined;
  /** Latest version seen by check or update. */
  latest?: { version: string; identity: string; checkedAt: string } | undefined;
  lastError?: { code: string; message: string; at: string } | undefined;
  /**
   * When this machine first saw the release `identity` (ISO time): min_release_age counts from it
   * when the source gives no usable release time (scripts, a URL without Last-Modified).
   */
  firstSeen?: { identity: string; at: string } | undefined;
  /** Embedded-signature pin; absent while the app has only been installed unsigned. */
  signature?: SignatureState | undefined;
  /** Another manager's desktop entry and icons moved aside by `adopt`; `remove` puts them back. */
  retired?: { from: string; backup: string }[] | undefined;
  /** forge: every installed release asset by `tag|name` (bounded), for the replaced-asset alarm. */
  releaseAssets?: Record<string, ReleaseAssetRecord> | undefined;
}

/**
 * An open rate-limit window of one app (`app:<name>`): it holds only while the app still asks the
 * same URL, and names the host that answered with the limit.
 */
export interface RateLimitWindow {
  /** ISO timestamp at which requests may be sent again. */
  until: string;
  message: string;
  /** The URL the app requested when the limit came (the window ends when the app's URL changes). */
  url?: string | undefined;
  /** Host that answered with the limit (after redirects). */
  host?: string | undefined;
}

/** Summary of the last mutating run, for `schedule status` and `doctor`. */
export interface RunRecord {
  command: string;
  startedAt: string;
  finishedAt: string;
  summary: Record<string, number>;
  failed: string[];
  updated: string[];
}

/** The whole state file. */
export interface StateData {
  schema: 1;
  apps: Record<string, AppState>;
  forgeKinds: Record<string, 'gitea' | 'forgejo'>;
  rateLimits: Record<string, RateLimitWindow>;
  lastRun?: RunRecord | undefined;
  /** App entries that failed validation on load, kept verbatim for the user and otherwise ignored. */
  setAside?: Record<string, SetAsideEntry> | undefined;
}

/** An invalid app entry moved out of `apps`, with why. */
export interface SetAsideEntry {
  entry: unknown;
  reason: string;
  at: string;
}

/** A conditional-request cache entry (one type, defined with the cache in http/conditional.ts). */
export type { CachedResponse };

/** The metadata cache file, kept apart from state so state writes stay small. */
export interface CacheData {
  schema: 1;
  responses: Record<string, CachedResponse>;
}
