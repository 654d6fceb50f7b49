import { malformed, unsupported } from './errors.js';
import { Reader } from './packets.js';

/** Signature types we meet (RFC 4880 §5.2.1). */
export const SIG_TYPE = {
  binary: 0x00,
  text: 0x01,
  subkeyBinding: 0x18,
  primaryKeyBinding: 0x19,
  keyRevocation: 0x20,
  subkeyRevocation: 0x28,
} as const;

/** Subpacket types we read. */
const SUB = {
  created: 2,
  sigExpires: 3,
  issuer: 16,
  keyFlags: 27,
  embeddedSignature: 32,
  issuerFingerprint: 33,
} as const;

// Subpackets that may be marked critical without changing what a data or binding signature means
// to us (RFC 4880 §5.2.3.1): a critical subpacket we do not know makes the signature unsupported.
const KNOWN_CRITICAL = new Set([2, 3, 4, 5, 7, 9, 11, 12, 16, 21, 22, 23, 25, 27, 30, 32, 33, 34]);

/** A parsed version 4 signature packet. */
export interface SignaturePacket {
  type: number;
  publicKeyAlgorithm: number;
  hashAlgorithm: number;
  /** Version byte through the hashed subpackets: what the trailer hashes. */
  hashedPart: Buffer;
  /** First two bytes of the digest, a quick check. */
  left16: Buffer;
  /** The algorithm-specific MPIs (RSA: one; ECDSA/EdDSA: r and s) or raw bytes (Ed25519 v4: one 64-byte value). */
  values: Buffer[];
  /** Seconds since the epoch (signature creation time subpacket, hashed). */
  created: number | undefined;
  /** Issuer key id (16 hex) or fingerprint (40 hex), upper case: hints only, they decide no trust. */
  issuerKeyIds: string[];
  issuerFingerprints: string[];
  /** Key flags from the hashed area (binding signatures). */
  keyFlags: number | undefined;
  /** An embedded signature (the primary key binding of a signing subkey), from either area. */
  embedded: Buffer[];
}

/** Parses a signature packet body; only version 4 signatures are supported. */
export function parseSignature(body: Buffer): SignaturePacket {
  const r = new Reader(body, 'signature packet');
  const version = r.u8();
  if (version !== 4) throw unsupported(`version ${version} signatures are not supported (only version 4)`);
  const type = r.u8();
  const publicKeyAlgorithm = r.u8();
  const hashAlgorithm = r.u8();
  const hashedLength = r.u16();
  const hashedArea = r.bytes(hashedLength);
  const hashedPart = body.subarray(0, r.offset);
  const unhashedArea = r.bytes(r.u16());
  const left16 = r.bytes(2);
  const values: Buffer[] = [];
  if (publicKeyAlgorithm === 27) values.push(r.bytes(64));
  else while (r.remaining > 0 && values.length < 2) values.push(r.mpi());
  if (r.remaining !== 0) throw malformed('signature packet has trailing bytes');
  const sig: SignaturePacket = {
    type,
    publicKeyAlgorithm,
    hashAlgorithm,
    hashedPart,
    left16,
    values,
    created: undefined,
    issuerKeyIds: [],
    issuerFingerprints: [],
    keyFlags: undefined,
    embedded: [],
  };
  readSubpackets(hashedArea, sig, true);
  readSubpackets(unhashedArea, sig, false);
  return sig;
}

function readSubpackets(area: Buffer, sig: SignaturePacket, hashed: boolean): void {
  const r = new Reader(area, 'signature subpackets');
  while (r.remaining > 0) {
    const o1 = r.u8();
    let length: number;
    if (o1 < 192) length = o1;
    else if (o1 < 255) length = ((o1 - 192) << 8) + r.u8() + 192;
    else length = r.u32();
    if (length === 0) throw malformed('empty signature subpacket');
    const content = r.bytes(length);
    const typeByte = content[0] ?? 0;
    const type = typeByte & 0x7f;
    const data = content.subarray(1);
    if (hashed && typeByte & 0x80 && !KNOWN_CRITICAL.has(type)) {
      throw unsupported(`signature has a critical subpacket of unknown type ${type}`);
    }
    switch (type) {
      case SUB.created:
        if (hashed) {
          if (data.length !== 4) throw malformed('bad signature creation time');
          sig.created = data.readUInt32BE(0);
        }
        break;
      case SUB.issuer:
        if (data.length !== 8) throw malformed('bad issuer key id');
        sig.issuerKeyIds.push(data.toString('hex').toUpperCase());
        break;
      case SUB.issuerFingerprint:
        // Version 4 keys: a version byte, then the 20-byte fingerprint; other versions are hints we skip.
        if (data[0] === 4 && data.length === 21)
          sig.issuerFingerprints.push(data.subarray(1).toString('hex').toUpperCase());
        break;
      case SUB.keyFlags:
        if (hashed) sig.keyFlags = data[0] ?? 0;
        break;
      case SUB.embeddedSignature:
        sig.embedded.push(data);
        break;
      default:
        break;
    }
  }
  if (hashed && sig.created === undefined) throw malformed('signature has no hashed creation time');
}
