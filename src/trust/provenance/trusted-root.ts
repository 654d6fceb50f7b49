/**
 * The Sigstore trusted roots embedded in the tool: the public-good root (Fulcio, Rekor, CT logs) for
 * build provenance, and GitHub's own trust domain for release attestations. Nothing is fetched at
 * run time: a root only changes with a new appimage-keeper build.
 */
import { TrustedRoot } from '@sigstore/protobuf-specs';
import seeds from '@sigstore/tuf/seeds.json' with { type: 'json' };
import { toTrustMaterial, type TrustMaterial, type VerifierOptions } from '@sigstore/verify';
import { GITHUB_TRUSTED_ROOT } from './github-root.js';
import { testTrustedRoot } from './test-hooks.js';

/** A trusted root in Sigstore's `TrustedRoot` JSON shape (the parts we read ourselves). */
export interface TrustedRootJson {
  mediaType: string;
  tlogs?: unknown[];
  ctlogs?: unknown[];
  certificateAuthorities?: unknown[];
  timestampAuthorities?: unknown[];
}

/** Which embedded root a check uses. */
export type RootName = 'public-good' | 'github';

/** A root ready for the verifier, with the thresholds its contents allow. */
export interface LoadedRoot {
  name: RootName;
  root: TrustedRoot;
  material: TrustMaterial;
  /** Transparency-log and CT thresholds drop to 0 for a domain that has no such logs (GitHub's). */
  options: VerifierOptions;
}

const PUBLIC_GOOD_REPO = 'https://tuf-repo-cdn.sigstore.dev';

/**
 * Sigstore's public-good trusted root, from the TUF seed that @sigstore/tuf ships (the bundler
 * embeds it): `targets["trusted_root.json"]` holds the root as base64.
 */
export function publicGoodRootJson(): TrustedRootJson {
  const repo = (seeds as Record<string, { targets?: Record<string, string> } | undefined>)[PUBLIC_GOOD_REPO];
  const encoded = repo?.targets?.['trusted_root.json'];
  if (!encoded) throw new Error('the embedded Sigstore TUF seed has no trusted_root.json');
  return JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as TrustedRootJson;
}

/** GitHub's trusted root (release attestations). */
export function githubRootJson(): TrustedRootJson {
  return GITHUB_TRUSTED_ROOT;
}

/** Turns root JSON into what the verifier needs. */
export function loadRoot(name: RootName, json: TrustedRootJson): LoadedRoot {
  const root = TrustedRoot.fromJSON(json);
  return {
    name,
    root,
    material: toTrustMaterial(root),
    options: {
      tlogThreshold: root.tlogs.length > 0 ? 1 : 0,
      ctlogThreshold: root.ctlogs.length > 0 ? 1 : 0,
      timestampThreshold: 1,
    },
  };
}

const cache = new Map<RootName, LoadedRoot>();

/** The embedded root `name`, parsed once per process (a test build may substitute its own). */
export function embeddedRoot(name: RootName, env: NodeJS.ProcessEnv): LoadedRoot {
  const override = testTrustedRoot(env);
  if (override) return loadRoot(name, override);
  let loaded = cache.get(name);
  if (!loaded) {
    loaded = loadRoot(name, name === 'github' ? githubRootJson() : publicGoodRootJson());
    cache.set(name, loaded);
  }
  return loaded;
}
