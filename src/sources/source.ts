/**
 * The one interface every source implements, and what the engine may ask of the source an app
 * follows. Types only: the per-source modules import this file, it never imports one of them.
 * The recipe's `strategy: forge` is routed by host to hub, lab or gitea (forge/detect.ts); the
 * registry (registry.ts) is keyed by that resolved kind.
 */
import type { AppSettings } from '../config/types.js';
import type { ForgeTarget } from './forge/forge-source.js';
import type { ForgeKind } from './forges.js';
import type { ReleaseFetch } from './forge/release-fetch.js';
import type { RepositoryUrl, RouteSettings } from './forge/repository-url.js';
import type { ResolveDeps, ResolveOutcome } from './types.js';
import type { AttestationEndpoint } from '../types/attestation-endpoint.js';

export type { AttestationEndpoint, ForgeKind };

/** Where releases come from: the forges (their names in forges.ts) and two strategies of their own. */
export type SourceKind = ForgeKind | 'direct' | 'script';

/** What a source is, whatever the app: the engine branches on these instead of on the kind. */
export interface SourceCaps {
  /**
   * The version the source reports is provisional (a date or an ETag digest); the AppImage's own
   * X-AppImage-Version replaces it after download.
   */
  readonly versionFromFile: boolean;
  /**
   * Assets belong to named releases whose bytes never change under their tag: state keeps their
   * history, and the release guards (ASSET_REPLACED, PROXY_DOWNGRADE) apply.
   */
  readonly releaseAssets: boolean;
}

/** A local program a source runs, and the file it runs (doctor's tool check). */
export interface ProgramNeed {
  readonly program: string;
  readonly file: string;
}

/** The per-app side of a source, once it knows the app's strategy and settings. */
export interface SourceBinding {
  /** Resolves the latest release; throws KeeperError for failures. */
  resolve(deps: ResolveDeps): Promise<ResolveOutcome>;
  /** Key of the per-host limiter the run's metadata requests queue on. */
  readonly limiterKey: string;
  /** Glob of the AppImage inside a ZIP asset, when the recipe names one. */
  readonly innerAssetMatch?: string | undefined;
  /** The one literal tag the recipe follows (its assets are replaced by design). */
  readonly followedTag?: string | undefined;
  /** The hub API base this app's requests go to (doctor --online probes its budget). */
  readonly hubApiBase?: string | undefined;
  /** The program the source runs for this app. */
  readonly runs?: ProgramNeed | undefined;
  /** The attestation API of the app's repository, when its forge publishes attestations. */
  readonly attestations?: ((deps: ResolveDeps) => AttestationEndpoint) | undefined;
}

/** A forge binding also hands out the release itself, before any asset is chosen (`add`, `adopt`). */
export interface ForgeBinding extends SourceBinding {
  fetchRelease(deps: ResolveDeps): Promise<ReleaseFetch>;
  /** Whether the repository is archived (one request; `add` and `adopt` only); undefined: unknown. */
  fetchArchived(deps: ResolveDeps): Promise<boolean | undefined>;
}

/**
 * One source. `T` is what routing hands it: the recipe's strategy block, or for a forge the
 * route the repository URL resolved to (with the strategy).
 */
export interface Source<T = unknown, B extends SourceBinding = SourceBinding> {
  readonly kind: SourceKind;
  readonly caps: SourceCaps;
  bind(target: T, settings: AppSettings): B;
}

/**
 * A forge: a source that also reads its share of a repository URL (`R`, its route) and writes the
 * URL back as a recipe does. Its kind is its name in the table of forges.ts (so it names no kind
 * itself: the kinds are derived from that table). Routing asks each forge's `ownsHost`; the one
 * forge without it takes every other host. Methods, so a forge of any route fits the table.
 */
export interface ForgeSource<R = unknown> {
  readonly caps: SourceCaps;
  bind(target: ForgeTarget<R>, settings: AppSettings): ForgeBinding;
  /** True when this forge serves `host` by name: its public host or the configured one. */
  ownsHost?(host: string, settings: RouteSettings): boolean;
  /** The repository the URL names on this forge; throws FORGE_REPOSITORY_INVALID when it names none. */
  route(repository: RepositoryUrl, settings: RouteSettings): R;
  /** The repository URL as a recipe writes it (`add` and `adopt` record this). */
  canonicalUrl(route: R, repository: RepositoryUrl): string;
}

/** What the engine holds for one app: the source's kind and capabilities, bound to the app. */
export type AppSource = SourceBinding & { readonly kind: SourceKind; readonly caps: SourceCaps };

/** A forge source bound to one app. */
export type ForgeAppSource = ForgeBinding & { readonly kind: SourceKind; readonly caps: SourceCaps };
