/**
 * The provenance stage of the verification pipeline, run before an asset is downloaded: look up
 * the hub's attestations for the asset's published digest, verify them, and apply the app's
 * `provenance` / `release_attestation` policy. The download's own SHA-256 check then ties the
 * installed bytes to the attested digest. A digest verified once is never looked up again.
 */
import type { AppSettings } from '../../config/types.js';
import type { Context } from '../../context/context.js';
import type { ProvenanceRecord } from '../../state/types.js';
import { checkAttestation, claimedKind, type AttestationTarget } from './check-attestation.js';
import { ALWAYS_FATAL, ProvenanceError, ProvenanceRateLimited, worstFailure } from './errors.js';
import type { AttestationEndpoint } from '../../types/attestation-endpoint.js';
import { entryBundle, listAttestations } from './fetch-attestations.js';
import { allowedHosts } from './identity.js';
import { embeddedRoot, type LoadedRoot, type RootName } from './trusted-root.js';

/** What the stage decided: the record to keep (when something verified) and warnings to show. */
export interface ProvenanceOutcome {
  record?: ProvenanceRecord | undefined;
  warnings: string[];
  /** HTTP exchanges spent (0 when off or already verified). */
  requests: number;
}

/** What the stage needs of the run, and where the app's source publishes attestations (none: undefined). */
export interface ProvenanceDeps {
  ctx: Context;
  signal?: AbortSignal | undefined;
  attestations: AttestationEndpoint | undefined;
}

/** The release asset about to be downloaded, as its source described it. */
export interface AttestedAsset {
  /** The release tag. */
  version: string;
  assetName: string;
  /** Lower-case hex SHA-256 the forge published. */
  sha256?: string | undefined;
  /** The release can no longer change, so a release attestation exists for it. */
  immutable?: boolean | undefined;
}

interface Findings {
  build?: ProvenanceRecord['build'];
  release?: ProvenanceRecord['release'];
  buildFailures: ProvenanceError[];
  releaseFailures: ProvenanceError[];
  requests: number;
}

/**
 * Runs the stage for one app about to be updated. Throws the failure that stops the install
 * (`require`, or INVALID/SUBJECT under `warn`); otherwise returns warnings and the record.
 */
export async function checkProvenance(
  settings: AppSettings,
  resolution: AttestedAsset,
  installed: ProvenanceRecord | undefined,
  deps: ProvenanceDeps,
  rootFor: (name: RootName) => LoadedRoot = (name) => embeddedRoot(name, deps.ctx.env),
): Promise<ProvenanceOutcome> {
  const mode = settings.provenance;
  if (mode === 'off') return { warnings: [], requests: 0 };
  const host = deps.attestations;
  if (!host) {
    return decide(settings, deps, [
      new ProvenanceError(
        'PROVENANCE_NONE',
        'attestations are only published by the hub (GitHub) for forge recipes',
      ),
    ]);
  }
  const hex = resolution.sha256?.toLowerCase();
  if (!hex) {
    return decide(settings, deps, [
      new ProvenanceError(
        'PROVENANCE_NO_DIGEST',
        `the hub published no sha256 digest for ${resolution.assetName}`,
      ),
    ]);
  }
  const digest = `sha256:${hex}`;
  if (installed?.digest === digest) return { record: installed, warnings: [], requests: 0 };

  const wantRelease =
    settings.release_attestation === 'require' ||
    (settings.release_attestation === 'auto' && resolution.immutable === true);
  let listed;
  try {
    listed = await listAttestations(host, hex);
  } catch (err) {
    // The hub refused or failed: no evidence either way, so the policy decides (warn or fail).
    if (err instanceof ProvenanceError) return decide(settings, deps, [err]);
    throw err;
  }
  if (listed.kind === 'rate_limited') {
    const message = `attestations not checked: ${listed.message}`;
    if (mode === 'require') throw new ProvenanceRateLimited(listed.retryAt, message);
    deps.ctx.emit({ type: 'warning', app: settings.name, code: 'PROVENANCE_RATE_LIMITED', message });
    return { warnings: [message], requests: listed.requests };
  }
  const target: AttestationTarget = {
    owner: host.owner,
    repo: host.repo,
    hosts: allowedHosts(settings.hub_release_web_url),
    signer: settings.provenance_signer,
    sha256: hex,
    assetName: resolution.assetName,
    tag: resolution.version,
  };
  const found = await examine(listed.entries, target, deps, rootFor);
  const failures: ProvenanceError[] = [];
  const mustPass = new Set<ProvenanceError>();
  if (!found.build) {
    failures.push(
      worstFailure(found.buildFailures) ??
        new ProvenanceError(
          'PROVENANCE_NONE',
          `no build provenance attestation for ${digest} (${listed.url})`,
        ),
    );
  }
  if (wantRelease && !found.release) {
    const failure =
      worstFailure(found.releaseFailures) ??
      new ProvenanceError(
        'PROVENANCE_NONE',
        `no release attestation for ${resolution.assetName} of ${target.tag}`,
      );
    failures.push(failure);
    // `release_attestation: require` makes this one fatal whatever `provenance` says.
    if (settings.release_attestation === 'require') mustPass.add(failure);
  }
  const outcome = decide(settings, deps, failures, mustPass);
  const record =
    found.build || found.release
      ? { digest, build: found.build, release: found.release, verifiedAt: deps.ctx.now().toISOString() }
      : undefined;
  return { ...outcome, record, requests: listed.requests + found.requests };
}

async function examine(
  entries: readonly Parameters<typeof entryBundle>[1][],
  target: AttestationTarget,
  deps: ProvenanceDeps,
  rootFor: (name: RootName) => LoadedRoot,
): Promise<Findings> {
  const found: Findings = { buildFailures: [], releaseFailures: [], requests: 0 };
  for (const entry of entries) {
    if (found.build && found.release) break;
    let kind: 'build' | 'release' | 'other' = 'build';
    try {
      const { bundle, requests } = await entryBundle(deps.ctx.http, entry, deps.signal);
      found.requests += requests;
      kind = claimedKind(bundle);
      const checked = checkAttestation(bundle, target, rootFor);
      if (checked.kind === 'build') {
        const id = checked.identity;
        found.build ??= {
          predicateType: checked.predicateType,
          signerWorkflow: id.workflow,
          sourceRepository: id.sourceRepository,
          sourceCommit: id.sourceCommit,
          sourceRef: id.sourceRef,
        };
      } else if (checked.kind === 'release') {
        found.release ??= { predicateType: checked.predicateType, signer: checked.signer, tag: target.tag };
      }
    } catch (err) {
      if (!(err instanceof ProvenanceError)) throw err;
      if (kind === 'release') found.releaseFailures.push(err);
      else if (kind === 'build') found.buildFailures.push(err);
    }
  }
  return found;
}

/**
 * Applies the policy: under `require` any failure stops the install; under `warn` only an
 * attestation that is itself wrong (INVALID, SUBJECT) does, the rest become warnings.
 */
function decide(
  settings: AppSettings,
  deps: ProvenanceDeps,
  failures: readonly ProvenanceError[],
  mustPass: ReadonlySet<ProvenanceError> = new Set(),
): ProvenanceOutcome {
  const fatal = failures.filter(
    (f) => settings.provenance === 'require' || ALWAYS_FATAL.has(f.provenanceCode) || mustPass.has(f),
  );
  const worst = worstFailure(fatal);
  if (worst) throw worst;
  const warnings: string[] = [];
  for (const f of failures) {
    const message = `provenance not verified (${f.provenanceCode}): ${f.message}`;
    warnings.push(message);
    deps.ctx.emit({ type: 'warning', app: settings.name, code: f.provenanceCode, message });
  }
  return { warnings, requests: 0 };
}
