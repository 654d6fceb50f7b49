/**
 * The hub's attestation API of one repository, handed to the provenance stage as data: the
 * endpoint of a digest, fetched with the hub token rule and the app's rate-limit windows.
 */
import type { AppSettings } from '../../config/types.js';
import type { AttestationEndpoint } from '../source.js';
import type { ResolveDeps } from '../types.js';
import type { HubRepo } from './hub.js';
import { fetchMetadata } from './metadata.js';
import { hubApiHeaders } from './token.js';

/** The attestations endpoint of a digest. */
export function attestationsUrl(repo: HubRepo, hex: string): string {
  return `${repo.apiBase}/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}/attestations/sha256:${hex}`;
}

/** The attestation API of `repo` for one app. */
export function hubAttestations(
  repo: HubRepo,
  settings: AppSettings,
  deps: ResolveDeps,
): AttestationEndpoint {
  return {
    owner: repo.owner,
    repo: repo.repo,
    url: (hex) => attestationsUrl(repo, hex),
    fetch: (url, what) =>
      fetchMetadata(
        {
          url,
          headers: hubApiHeaders(url, settings),
          credentialsUnder: repo.apiBase,
          conditional: false,
          phase: 'attestation',
          what,
        },
        settings,
        deps,
      ),
  };
}
