import { readEmbeddedSignature } from '../appimage/embedded-signature.js';
import { verifyEmbeddedSignature, type TrustedKey } from '../appimage/signature-verify.js';
import type { ZeroedDigest } from '../appimage/zeroed-digest.js';
import type { AppSettings } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import type { SignatureState } from '../state/types.js';
import type { AppRun } from './app-run.js';

/** What the signature stage decided for a downloaded AppImage. */
export interface SignatureStepResult {
  /** The app's signature state after this install (unchanged when the file is unsigned or the check is off). */
  state: SignatureState | undefined;
  warnings: string[];
}

/** The key an update must be signed with: the recipe's signing_key, else the key pinned in state. */
function trustedKey(settings: AppSettings, pinned: SignatureState | undefined): TrustedKey | undefined {
  const fingerprint = settings.signing_key ?? pinned?.fingerprint;
  if (!fingerprint) return undefined;
  const keep = pinned?.fingerprint === fingerprint && pinned.publicKey;
  return { fingerprint, publicKey: keep ? Buffer.from(keep, 'base64') : undefined };
}

/**
 * The embedded-signature stage (`signature: tofu | require`): key continuity as AppImageUpdate does
 * it. The first signed install pins its key; afterwards only the pinned key may sign (SIG_KEY_CHANGED),
 * a signed app may not turn unsigned (SIG_REMOVED), and a signature must verify (SIG_BAD). `require`
 * refuses unsigned files (SIG_MISSING) and SHA-1 signatures (SIG_LEGACY, a warning under tofu).
 * `signedDigest`, when the download computed it, saves reading the file again.
 */
export async function signatureStep(
  app: AppRun,
  file: string,
  version: string,
  signedDigest?: ZeroedDigest,
): Promise<SignatureStepResult> {
  const { settings, ctx } = app;
  const pinned = app.state?.signature;
  if (settings.signature === 'off') return { state: pinned, warnings: [] };
  const trusted = trustedKey(settings, pinned);
  const embedded = await readEmbeddedSignature(file);
  if (!embedded) {
    if (pinned) {
      throw new KeeperError(
        'SIG_REMOVED',
        `${version} is not signed, but earlier versions were signed by key ${pinned.fingerprint}`,
        {
          hint: 'the installed version was kept; an unsigned update of a signed app may not come from its authors',
          details: { pinned: pinned.fingerprint },
        },
      );
    }
    if (settings.signing_key || settings.signature === 'require') {
      const why = settings.signing_key ? `signing_key is ${settings.signing_key}` : 'signature: require';
      throw new KeeperError('SIG_MISSING', `${version} carries no embedded signature (${why})`, {
        hint: 'the installed version was kept; set signature: tofu or off for apps that are not signed',
      });
    }
    return { state: pinned, warnings: [] };
  }
  const verified = await verifyEmbeddedSignature(file, embedded, trusted, signedDigest);
  const warnings: string[] = [];
  if (verified.legacy) {
    const message = `signed with ${verified.hashAlgorithm}, a digest that no longer resists forgery`;
    if (settings.signature === 'require') {
      throw new KeeperError('SIG_LEGACY', `${message} (signature: require)`, {
        hint: 'the installed version was kept; use signature: tofu to accept legacy signatures with a warning',
      });
    }
    warnings.push(`${message}; accepted as legacy`);
    ctx.emit({ type: 'warning', app: settings.name, code: 'SIG_LEGACY', message: warnings[0] ?? message });
  }
  const now = ctx.now().toISOString();
  const samePin = pinned?.fingerprint === verified.fingerprint;
  const state: SignatureState = {
    fingerprint: verified.fingerprint,
    pinnedBy: settings.signing_key ? 'signing_key' : samePin && pinned ? pinned.pinnedBy : 'first-install',
    pinnedAt: samePin && pinned ? pinned.pinnedAt : now,
    publicKey: verified.publicKey.toString('base64'),
    lastVerified: {
      version,
      signerKeyId: verified.signerKeyId,
      hashAlgorithm: verified.hashAlgorithm,
      mode: verified.mode,
      signedAt: verified.signedAt?.toISOString() ?? null,
      at: now,
    },
  };
  ctx.emit({
    type: 'info',
    app: settings.name,
    message: `signature verified: key ${verified.fingerprint} (${verified.keyDescription}, ${verified.hashAlgorithm}, ${verified.mode} mode)${trusted ? '' : '; key pinned on first use'}; signed digest ${verified.digestSource === 'download' ? 'computed in the SHA-256 pass' : 'from one more read of the file'}`,
  });
  return { state, warnings };
}
