import { dearmor } from './armor.js';
import { malformed, PgpError, unsupported } from './errors.js';
import { parsePackets, TAG } from './packets.js';
import { parsePublicKey, type PublicKey } from './public-key.js';
import { parseSignature, SIG_TYPE, type SignaturePacket } from './signature-packet.js';
import { canonicalText, keyMaterial, verifyWithKey } from './verify-signature.js';

/** A transferable public key: the primary key and its subkeys with their binding signatures. */
export interface KeyBlock {
  primary: PublicKey;
  subkeys: { key: PublicKey; bindings: Buffer[] }[];
}

const SIGN_FLAG = 0x02;

/** Reads armoured (or binary) OpenPGP data: the packets' bytes. */
function packetBytes(data: Buffer, label: string): Buffer {
  const head = data.subarray(0, 64).toString('latin1').trimStart();
  if (head.startsWith('-----BEGIN')) return dearmor(data.toString('latin1'), label);
  return data;
}

/** Parses a public key block; user ids and their certifications are skipped (trust comes from the pin). */
export function parseKeyBlock(data: Buffer): KeyBlock {
  const packets = parsePackets(packetBytes(data, 'PGP PUBLIC KEY BLOCK'));
  const first = packets[0];
  if (!first || first.tag !== TAG.publicKey)
    throw malformed('a key block must start with a public key packet');
  const block: KeyBlock = { primary: parsePublicKey(first.body), subkeys: [] };
  let current: KeyBlock['subkeys'][number] | undefined;
  for (const p of packets.slice(1)) {
    if (p.tag === TAG.publicKey) break; // a second key: only the first one counts
    if (p.tag === TAG.publicSubkey) {
      try {
        current = { key: parsePublicKey(p.body), bindings: [] };
        block.subkeys.push(current);
      } catch (err) {
        // A v5/v6 or odd subkey must not hide the rest of the key; it simply cannot be used.
        if (!(err instanceof PgpError)) throw err;
        current = undefined;
      }
    } else if (p.tag === TAG.userId || p.tag === TAG.userAttribute) {
      current = undefined;
    } else if (p.tag === TAG.signature && current) {
      current.bindings.push(p.body);
    }
  }
  return block;
}

/** Parses a detached signature: exactly one signature packet. */
export function parseDetachedSignature(data: Buffer): SignaturePacket {
  const packets = parsePackets(packetBytes(data, 'PGP SIGNATURE'));
  const sigs = packets.filter((p) => p.tag === TAG.signature);
  if (packets.length === 0 || sigs.length !== packets.length) throw malformed('not a detached signature');
  if (sigs.length !== 1) throw unsupported(`${sigs.length} signatures in one block (expected one)`);
  return parseSignature((sigs[0] as { body: Buffer }).body);
}

/** Outcome of checking a detached document signature against one trusted primary key. */
export type DetachedCheck =
  | { kind: 'good'; signer: PublicKey; viaSubkey: boolean }
  | { kind: 'bad' }
  | { kind: 'other-key'; issuer: string };

/**
 * Verifies a detached binary- or text-mode signature over `content` with the trusted `primary` key,
 * or with one of its signing subkeys from `block` whose binding to `primary` verifies (subkey binding
 * plus the subkey's own cross-signature). `other-key` means the issuer named in the signature is
 * neither the primary nor one of its usable subkeys.
 */
export function checkDetached(
  sig: SignaturePacket,
  content: Buffer,
  primary: PublicKey,
  block: KeyBlock | undefined,
): DetachedCheck {
  if (sig.type !== SIG_TYPE.binary && sig.type !== SIG_TYPE.text) {
    throw malformed(`signature type 0x${sig.type.toString(16)} is not a document signature`);
  }
  const subkeys = block && block.primary.fingerprint === primary.fingerprint ? block.subkeys : [];
  const candidates = [primary, ...subkeys.map((s) => s.key)];
  const hinted = candidates.filter(
    (k) => sig.issuerFingerprints.includes(k.fingerprint) || sig.issuerKeyIds.includes(k.keyId),
  );
  const hints = sig.issuerFingerprints.length + sig.issuerKeyIds.length;
  if (hints > 0 && hinted.length === 0) {
    return { kind: 'other-key', issuer: sig.issuerFingerprints[0] ?? sig.issuerKeyIds[0] ?? '?' };
  }
  const content2 = sig.type === SIG_TYPE.text ? canonicalText(content) : content;
  for (const key of hints > 0 ? hinted : candidates) {
    const viaSubkey = key !== primary;
    if (viaSubkey) {
      const sub = subkeys.find((s) => s.key === key);
      if (!sub || !subkeyCanSign(primary, sub)) {
        if (hints > 0) {
          throw unsupported(
            `signed by subkey ${key.keyId}, whose binding to ${primary.fingerprint} cannot be verified`,
          );
        }
        continue;
      }
    }
    if (verifyWithKey(sig, content2, key)) return { kind: 'good', signer: key, viaSubkey };
  }
  return { kind: 'bad' };
}

/** A subkey may sign for its primary when a binding with the sign flag and its cross-signature both verify. */
function subkeyCanSign(primary: PublicKey, sub: KeyBlock['subkeys'][number]): boolean {
  const material = keyMaterial(primary, sub.key);
  for (const body of sub.bindings) {
    const binding = tryParseSignature(body);
    if (!binding || binding.type !== SIG_TYPE.subkeyBinding) continue;
    if (((binding.keyFlags ?? 0) & SIGN_FLAG) === 0 || !safeVerify(binding, material, primary)) continue;
    for (const raw of binding.embedded) {
      const back = tryParseSignature(raw);
      if (back?.type === SIG_TYPE.primaryKeyBinding && safeVerify(back, material, sub.key)) return true;
    }
  }
  return false;
}

function tryParseSignature(body: Buffer): SignaturePacket | undefined {
  try {
    return parseSignature(body);
  } catch {
    return undefined;
  }
}

function safeVerify(sig: SignaturePacket, content: Buffer, key: PublicKey): boolean {
  try {
    return verifyWithKey(sig, content, key);
  } catch {
    return false;
  }
}
