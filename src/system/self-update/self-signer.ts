/**
 * Who may sign the tool's own executable: the release workflow of the repository this build was
 * made from (package.json `repository`, baked in at build time), on github.com. Neither config.yml,
 * `--repository` nor the environment can change it: `--repository` only says where to download.
 */
import { KeeperError } from '../../core/errors.js';
import { REPOSITORY } from '../../core/version.js';
import type { ExpectedSigner } from '../../trust/provenance/identity.js';

/** The workflow file, in our repository, that builds and attests release executables. */
export const RELEASE_WORKFLOW = '.github/workflows/release.yml';

/** The pinned signer for `repositoryUrl` (default: this build's own repository). */
export function selfSigner(repositoryUrl: string = REPOSITORY): ExpectedSigner {
  const m = /^https:\/\/github\.com\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(repositoryUrl);
  if (!m?.[1] || !m[2]) {
    // A build from a package.json that names no github.com repository has no workflow to trust.
    throw new KeeperError(
      'SELF_UPDATE_UNVERIFIED',
      `this build's repository ${repositoryUrl} is not on github.com, so no release workflow can vouch for a new executable`,
      { hint: 'download the new executable by hand, or pass --insecure to skip the authenticity check' },
    );
  }
  const [, owner, repo] = m;
  return { owner, repo, hosts: ['github.com'], signer: `${owner}/${repo}/${RELEASE_WORKFLOW}` };
}
