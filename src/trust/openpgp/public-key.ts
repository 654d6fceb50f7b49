import { createHash, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { malformed, unsupported } from './errors.js';
import { Reader } from './packets.js';

/** Public-key algorithm ids (RFC 4880 §9.1, RFC 9580 §9.1). */
export const PK_ALGO = {
  rsa: 1,
  rsaEncrypt: 2,
  rsaSign: 3,
  elgamal: 16,
  dsa: 17,
  ecdh: 18,
  ecdsa: 19,
  eddsaLegacy: 22,
  ed25519: 27,
} as const;

/** A v4 public key or subkey, with a node:crypto KeyObject when we can verify with it. */
export interface PublicKey {
  /** 40 upper-case hex digits: SHA-1 over 0x99, the 2-byte body length and the key packet body. */
  fingerprint: string;
  /** The low 64 bits of the fingerprint, 16 upper-case hex digits. */
  keyId: string;
  algorithm: number;
  /** e.g. "rsa3072", "ed25519", "nistp256"; for messages and state. */
  description: string;
  created: number;
  /** The packet body, as hashed into binding signatures. */
  body: Buffer;
  /** Undefined when the algorithm cannot sign or is not one we implement (see `unsupportedReason`). */
  key: KeyObject | undefined;
  unsupportedReason: string | undefined;
  /** Byte length of an ECDSA scalar (r, s are padded to it). */
  scalarBytes?: number;
}

const CURVES: Record<string, { name: string; jwk: string; bytes: number }> = {
  '2a8648ce3d030107': { name: 'nistp256', jwk: 'P-256', bytes: 32 },
  '2b81040022': { name: 'nistp384', jwk: 'P-384', bytes: 48 },
  '2b81040023': { name: 'nistp521', jwk: 'P-521', bytes: 66 },
};
const ED25519_OID = '2b06010401da470f01';
const MIN_RSA_BITS = 1024;

/** Parses a public key or public subkey packet body; only version 4 is supported. */
export function parsePublicKey(body: Buffer): PublicKey {
  const r = new Reader(body, 'public key packet');
  const version = r.u8();
  if (version !== 4) throw unsupported(`version ${version} public keys are not supported (only version 4)`);
  if (body.length > 0xffff) throw malformed('public key packet is too long');
  const created = r.u32();
  const algorithm = r.u8();
  const digest = createHash('sha1')
    .update(Buffer.from([0x99, body.length >> 8, body.length & 0xff]))
    .update(body)
    .digest('hex')
    .toUpperCase();
  const base = {
    fingerprint: digest,
    keyId: digest.slice(-16),
    algorithm,
    created,
    body,
  };
  switch (algorithm) {
    case PK_ALGO.rsa:
    case PK_ALGO.rsaSign: {
      const n = r.mpi();
      const e = r.mpi();
      const bits = bitLength(n);
      if (bits < MIN_RSA_BITS) {
        return {
          ...base,
          description: `rsa${bits}`,
          key: undefined,
          unsupportedReason: `RSA keys of ${bits} bits are too weak`,
        };
      }
      return {
        ...base,
        description: `rsa${bits}`,
        key: jwkKey({ kty: 'RSA', n: b64u(n), e: b64u(e) }),
        unsupportedReason: undefined,
      };
    }
    case PK_ALGO.ecdsa: {
      const oid = readOid(r);
      const curve = CURVES[oid];
      const point = r.mpi();
      if (!curve)
        return {
          ...base,
          description: `ecdsa(${oid})`,
          key: undefined,
          unsupportedReason: `ECDSA curve ${oid} is not supported`,
        };
      if (point.length !== 1 + 2 * curve.bytes || point[0] !== 0x04)
        throw malformed(`bad ${curve.name} public point`);
      const x = point.subarray(1, 1 + curve.bytes);
      const y = point.subarray(1 + curve.bytes);
      return {
        ...base,
        description: curve.name,
        key: jwkKey({ kty: 'EC', crv: curve.jwk, x: b64u(x), y: b64u(y) }),
        unsupportedReason: undefined,
        scalarBytes: curve.bytes,
      };
    }
    case PK_ALGO.eddsaLegacy: {
      const oid = readOid(r);
      const point = r.mpi();
      if (oid !== ED25519_OID)
        return {
          ...base,
          description: `eddsa(${oid})`,
          key: undefined,
          unsupportedReason: `EdDSA curve ${oid} is not supported`,
        };
      // Native point format: a 0x40 prefix byte, then the 32-byte key.
      if (point.length !== 33 || point[0] !== 0x40) throw malformed('bad Ed25519 public point');
      return {
        ...base,
        description: 'ed25519',
        key: ed25519Key(point.subarray(1)),
        unsupportedReason: undefined,
      };
    }
    case PK_ALGO.ed25519: {
      const raw = r.bytes(32);
      return { ...base, description: 'ed25519', key: ed25519Key(raw), unsupportedReason: undefined };
    }
    default:
      return {
        ...base,
        description: `algorithm ${algorithm}`,
        key: undefined,
        unsupportedReason: `public-key algorithm ${algorithm} cannot be verified here (supported: RSA, ECDSA P-256/384/521, Ed25519)`,
      };
  }
}

function readOid(r: Reader): string {
  const len = r.u8();
  if (len === 0 || len === 0xff) throw malformed('bad curve OID length');
  return r.bytes(len).toString('hex');
}

function bitLength(n: Buffer): number {
  const top = n[0] ?? 0;
  return top === 0 ? 0 : (n.length - 1) * 8 + (32 - Math.clz32(top));
}

function b64u(b: Buffer): string {
  return b.toString('base64url');
}

function ed25519Key(raw: Buffer): KeyObject {
  return jwkKey({ kty: 'OKP', crv: 'Ed25519', x: b64u(raw) });
}

function jwkKey(jwk: JsonWebKey): KeyObject {
  try {
    return createPublicKey({ key: jwk, format: 'jwk' });
  } catch (err) {
    throw malformed(`public key is not valid: ${err instanceof Error ? err.message : String(err)}`);
  }
}
