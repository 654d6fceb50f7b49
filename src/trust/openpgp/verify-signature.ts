import { createHash, verify as cryptoVerify } from 'node:crypto';
import { PgpError, unsupported } from './errors.js';
import { PK_ALGO, type PublicKey } from './public-key.js';
import type { SignaturePacket } from './signature-packet.js';

/** Hash algorithm ids (RFC 4880 §9.4, RFC 9580 §9.5) we verify, by node:crypto name. */
const HASHES: Record<number, { node: string; label: string }> = {
  2: { node: 'sha1', label: 'SHA1' },
  8: { node: 'sha256', label: 'SHA256' },
  9: { node: 'sha384', label: 'SHA384' },
  10: { node: 'sha512', label: 'SHA512' },
  11: { node: 'sha224', label: 'SHA224' },
  12: { node: 'sha3-256', label: 'SHA3-256' },
  14: { node: 'sha3-512', label: 'SHA3-512' },
};

/** The display name of a hash algorithm id ("SHA256"), or `hash <id>` for others. */
export function hashName(id: number): string {
  return HASHES[id]?.label ?? `hash ${id}`;
}

/**
 * What a signature hashes (RFC 4880 §5.2.4): the signed content, then the hashed part of the
 * signature packet, then the trailer 0x04 0xff and that part's length as 4 bytes.
 */
export function signedMessage(content: Buffer, sig: SignaturePacket): Buffer {
  const trailer = Buffer.alloc(6);
  trailer[0] = 0x04;
  trailer[1] = 0xff;
  trailer.writeUInt32BE(sig.hashedPart.length, 2);
  return Buffer.concat([content, sig.hashedPart, trailer]);
}

/** A document in canonical text form: every line ending becomes CR LF (RFC 4880 §5.2.1, type 0x01). */
export function canonicalText(data: Buffer): Buffer {
  return Buffer.from(data.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
}

/** The bytes hashed for a key binding signature: 0x99, a 2-byte length and the body, per key. */
export function keyMaterial(...keys: PublicKey[]): Buffer {
  return Buffer.concat(
    keys.flatMap((k) => [Buffer.from([0x99, k.body.length >> 8, k.body.length & 0xff]), k.body]),
  );
}

/**
 * Checks a signature packet over `content` (already canonicalised when needed) with `key`. Returns
 * false for a signature that does not verify; throws PgpError('unsupported') for an algorithm or hash
 * we cannot check, so an unknown construction never passes.
 */
export function verifyWithKey(sig: SignaturePacket, content: Buffer, key: PublicKey): boolean {
  try {
    return verifyUnguarded(sig, content, key);
  } catch (err) {
    if (err instanceof PgpError) throw err;
    // OpenSSL refuses some keys only when used (e.g. an RSA modulus over 16384 bits).
    throw unsupported(
      `node:crypto cannot verify with key ${key.keyId}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

function verifyUnguarded(sig: SignaturePacket, content: Buffer, key: PublicKey): boolean {
  const hash = HASHES[sig.hashAlgorithm];
  if (!hash) throw unsupported(`hash algorithm ${sig.hashAlgorithm} is not supported`);
  if (!key.key) throw unsupported(key.unsupportedReason ?? `key ${key.fingerprint} cannot verify`);
  if (!algorithmsMatch(sig.publicKeyAlgorithm, key.algorithm)) return false;
  const message = signedMessage(content, sig);
  const digest = createHash(hash.node).update(message).digest();
  if (!digest.subarray(0, 2).equals(sig.left16)) return false;
  switch (key.algorithm) {
    case PK_ALGO.rsa:
    case PK_ALGO.rsaSign: {
      const s = sig.values[0];
      const modulusBytes = Math.ceil((key.key.asymmetricKeyDetails?.modulusLength ?? 0) / 8);
      if (sig.values.length !== 1 || !s || s.length > modulusBytes) return false;
      return cryptoVerify(hash.node, message, key.key, leftPad(s, modulusBytes));
    }
    case PK_ALGO.ecdsa: {
      const n = key.scalarBytes ?? 0;
      const [r, s] = sig.values;
      if (sig.values.length !== 2 || !r || !s || r.length > n || s.length > n) return false;
      return cryptoVerify(
        hash.node,
        message,
        { key: key.key, dsaEncoding: 'ieee-p1363' },
        Buffer.concat([leftPad(r, n), leftPad(s, n)]),
      );
    }
    case PK_ALGO.eddsaLegacy:
    case PK_ALGO.ed25519: {
      // EdDSA in OpenPGP signs the digest itself, not the message.
      const rs =
        key.algorithm === PK_ALGO.ed25519 || sig.publicKeyAlgorithm === PK_ALGO.ed25519
          ? sig.values[0]
          : sig.values.length === 2 &&
              sig.values[0] &&
              sig.values[1] &&
              sig.values[0].length <= 32 &&
              sig.values[1].length <= 32
            ? Buffer.concat([leftPad(sig.values[0], 32), leftPad(sig.values[1], 32)])
            : undefined;
      if (!rs || rs.length !== 64) return false;
      return cryptoVerify(null, digest, key.key, rs);
    }
    default:
      throw unsupported(`public-key algorithm ${key.algorithm} is not supported`);
  }
}

function algorithmsMatch(sigAlgo: number, keyAlgo: number): boolean {
  if (sigAlgo === keyAlgo) return true;
  const rsa: number[] = [PK_ALGO.rsa, PK_ALGO.rsaSign];
  return rsa.includes(sigAlgo) && rsa.includes(keyAlgo);
}

function leftPad(b: Buffer, length: number): Buffer {
  if (b.length >= length) return b;
  return Buffer.concat([Buffer.alloc(length - b.length), b]);
}
