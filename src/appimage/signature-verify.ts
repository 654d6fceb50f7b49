import { KeeperError } from '../core/errors.js';
import {
  checkDetached,
  hashName,
  parseDetachedSignature,
  parseKeyBlock,
  parsePublicKey,
  PgpError,
  type KeyBlock,
  type PublicKey,
  type SignaturePacket,
} from '../trust/openpgp/index.js';
import { sha256WithZeroedRanges, type EmbeddedSignature } from './embedded-signature.js';
import type { ZeroedDigest } from './zeroed-digest.js';

/** The key an update must be signed with: a fingerprint, and the key itself when we kept it. */
export interface TrustedKey {
  fingerprint: string;
  /** Body of the v4 public key packet; without it the key is taken from the file when its fingerprint matches. */
  publicKey?: Buffer | undefined;
}

/** A verified embedded signature. */
export interface VerifiedSignature {
  /** Fingerprint of the primary key that (directly or through a subkey) made the signature. */
  fingerprint: string;
  /** Key id of the key that signed (the primary or a signing subkey). */
  signerKeyId: string;
  keyDescription: string;
  /** Body of the primary key's packet, to pin. */
  publicKey: Buffer;
  hashAlgorithm: string;
  /** SHA-1: accepted as legacy only. */
  legacy: boolean;
  mode: 'binary' | 'text';
  signedAt: Date | undefined;
  /** The signed text: the hex SHA-256 of the file with both signature sections zeroed. */
  digest: string;
  /** `download`: computed in the same pass as the file's SHA-256; `file`: by one more read of the file. */
  digestSource: 'download' | 'file';
}

const SHA1 = 2;

function sigError(code: string, message: string, hint?: string, cause?: unknown): KeeperError {
  return new KeeperError(code, message, { ...(hint ? { hint } : {}), ...(cause ? { cause } : {}) });
}

function fromPgp(err: unknown, what: string): KeeperError {
  if (err instanceof PgpError) {
    return err.kind === 'unsupported'
      ? sigError(
          'SIG_UNSUPPORTED',
          `${what}: ${err.message}`,
          'the file was not installed: a signature we cannot check never passes',
          err,
        )
      : sigError('SIG_BAD', `${what}: ${err.message}`, undefined, err);
  }
  return err instanceof KeeperError ? err : sigError('SIG_BAD', `${what}: ${String(err)}`, undefined, err);
}

/**
 * Verifies an AppImage's embedded signature. With `trusted`, only that key (or a signing subkey bound
 * to it) may have signed, whatever `.sig_key` the new file carries: SIG_KEY_CHANGED otherwise. Without
 * it (first install), the file's own key verifies and is returned for pinning. A signature that does
 * not verify is SIG_BAD; one we cannot check is SIG_UNSUPPORTED. `precomputed` is the signed digest
 * computed while downloading; without it (or when its ranges differ) the file is read once more.
 */
export async function verifyEmbeddedSignature(
  path: string,
  embedded: EmbeddedSignature,
  trusted: TrustedKey | undefined,
  precomputed?: ZeroedDigest,
): Promise<VerifiedSignature> {
  let sig: SignaturePacket;
  try {
    sig = parseDetachedSignature(embedded.signature);
  } catch (err) {
    throw fromPgp(err, 'the signature in .sha256_sig cannot be read');
  }
  let fileBlock: KeyBlock | undefined;
  let fileKeyError: unknown;
  try {
    fileBlock = embedded.key ? parseKeyBlock(embedded.key) : undefined;
  } catch (err) {
    fileKeyError = err;
  }
  let primary: PublicKey | undefined;
  if (trusted) {
    if (trusted.publicKey) {
      try {
        primary = parsePublicKey(trusted.publicKey);
      } catch (err) {
        throw fromPgp(err, 'the pinned key kept in state cannot be read');
      }
      if (primary.fingerprint !== trusted.fingerprint) {
        throw sigError(
          'SIG_UNSUPPORTED',
          `the key kept in state is ${primary.fingerprint}, not the pinned ${trusted.fingerprint}`,
        );
      }
    } else if (fileBlock?.primary.fingerprint === trusted.fingerprint) {
      primary = fileBlock.primary;
    }
    if (!primary) {
      const issuer = sig.issuerFingerprints[0] ?? sig.issuerKeyIds[0];
      if (issuer && !trusted.fingerprint.endsWith(issuer))
        throw keyChanged(trusted.fingerprint, issuer, fileBlock);
      throw sigError(
        'SIG_UNSUPPORTED',
        `the pinned key ${trusted.fingerprint} is not available to verify with (not kept in state, not in the file's ${'.sig_key'})`,
      );
    }
  } else {
    if (!fileBlock) {
      if (fileKeyError) throw fromPgp(fileKeyError, 'the key in .sig_key cannot be read');
      throw sigError(
        'SIG_UNSUPPORTED',
        'the file is signed but carries no public key (.sig_key) to verify the first signature with',
        'set signing_key only together with a file that carries that key, or signature: off',
      );
    }
    primary = fileBlock.primary;
  }
  const block = fileBlock?.primary.fingerprint === primary.fingerprint ? fileBlock : undefined;
  // A digest from the download pass counts only if it zeroed exactly the sections read from the file.
  const shared = precomputed && JSON.stringify(precomputed.ranges) === JSON.stringify(embedded.zeroRanges);
  const digest = shared ? precomputed.digest : await sha256WithZeroedRanges(path, embedded.zeroRanges);
  let check;
  try {
    check = checkDetached(sig, Buffer.from(digest, 'latin1'), primary, block);
  } catch (err) {
    throw fromPgp(err, 'the signature cannot be checked');
  }
  if (check.kind === 'other-key') {
    if (trusted) throw keyChanged(trusted.fingerprint, check.issuer, fileBlock);
    throw sigError(
      'SIG_BAD',
      `signed by key ${check.issuer}, which the file's own .sig_key does not contain`,
    );
  }
  if (check.kind === 'bad') {
    // A signature without issuer hints that a different key in the file verifies is a key change.
    if (trusted && fileBlock && fileBlock.primary.fingerprint !== primary.fingerprint) {
      const other = safeCheck(sig, digest, fileBlock);
      if (other) throw keyChanged(trusted.fingerprint, fileBlock.primary.fingerprint, fileBlock);
    }
    throw sigError(
      'SIG_BAD',
      `the signature by key ${primary.fingerprint} does not match the file (SHA-256 with signature sections zeroed: ${digest})`,
      'the file was changed after it was signed, or the signature is forged; it was not installed',
    );
  }
  return {
    fingerprint: primary.fingerprint,
    signerKeyId: check.signer.keyId,
    keyDescription: check.signer.description,
    publicKey: primary.body,
    hashAlgorithm: hashName(sig.hashAlgorithm),
    legacy: sig.hashAlgorithm === SHA1,
    mode: sig.type === 0x01 ? 'text' : 'binary',
    signedAt: sig.created === undefined ? undefined : new Date(sig.created * 1000),
    digest,
    digestSource: shared ? 'download' : 'file',
  };
}

function safeCheck(sig: SignaturePacket, digest: string, block: KeyBlock): boolean {
  try {
    return checkDetached(sig, Buffer.from(digest, 'latin1'), block.primary, block).kind === 'good';
  } catch {
    return false;
  }
}

function keyChanged(pinned: string, now: string, fileBlock: KeyBlock | undefined): KeeperError {
  const fileKey = fileBlock ? `; the file carries key ${fileBlock.primary.fingerprint}` : '';
  return new KeeperError(
    'SIG_KEY_CHANGED',
    `signed by key ${now}, not by the pinned key ${pinned}${fileKey}`,
    {
      hint: 'the installed version was kept; if the project really changed its key, set signing_key to the new fingerprint in the recipe',
      details: { pinned, signer: now, ...(fileBlock ? { fileKey: fileBlock.primary.fingerprint } : {}) },
    },
  );
}
