import { malformed } from './errors.js';

// Armoured keys in AppImages fit in their 8 KiB section; this leaves room for big RSA keys with many
// signatures while keeping hostile input small.
const MAX_ARMOR_CHARS = 256 << 10;
const CRC24_INIT = 0xb704ce;
const CRC24_POLY = 0x1864cfb;

/** CRC-24 of RFC 4880 §6.1, the armour checksum. */
export function crc24(data: Uint8Array): number {
  let crc = CRC24_INIT;
  for (const byte of data) {
    crc ^= byte << 16;
    for (let i = 0; i < 8; i++) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= CRC24_POLY;
    }
  }
  return crc & 0xffffff;
}

/**
 * Decodes the first ASCII-armoured block of `label` (e.g. "PGP SIGNATURE") in `text`: armour headers
 * are skipped, the base64 body must be clean, and a CRC-24 line, when present, must match.
 */
export function dearmor(text: string, label: string): Buffer {
  if (text.length > MAX_ARMOR_CHARS)
    throw malformed(`armoured ${label} is larger than ${MAX_ARMOR_CHARS} characters`);
  const lines = text.split(/\r?\n/).map((l) => l.replace(/[ \t]+$/, ''));
  const begin = lines.indexOf(`-----BEGIN ${label}-----`);
  if (begin === -1) throw malformed(`no "-----BEGIN ${label}-----" line`);
  const endLine = `-----END ${label}-----`;
  const end = lines.indexOf(endLine, begin + 1);
  if (end === -1) throw malformed(`no "${endLine}" line`);
  let i = begin + 1;
  // Armour headers ("Version: ...") run up to the first blank line; some writers omit both.
  if (/^[\x21-\x39\x3b-\x7e]+: /.test(lines[i] ?? '')) {
    while (i < end && lines[i] !== '') {
      if (!/^[\x21-\x39\x3b-\x7e]+: /.test(lines[i] ?? '')) throw malformed('bad armour header line');
      i++;
    }
  }
  if (lines[i] === '') i++;
  let body = '';
  let checksum: string | undefined;
  for (; i < end; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('=') && checksum === undefined && line.length === 5) {
      checksum = line.slice(1);
      continue;
    }
    if (checksum !== undefined) throw malformed('armour data after the checksum line');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(line)) throw malformed('armour body is not base64');
    body += line;
  }
  if (body.length % 4 !== 0 || /=[^=]/.test(body)) throw malformed('armour body is not base64');
  const data = Buffer.from(body, 'base64');
  if (data.length === 0) throw malformed(`armoured ${label} is empty`);
  if (checksum !== undefined) {
    if (!/^[A-Za-z0-9+/]{4}$/.test(checksum)) throw malformed('armour checksum is not base64');
    const want = Buffer.from(checksum, 'base64').readUIntBE(0, 3);
    if (want !== crc24(data)) throw malformed(`armour checksum (CRC-24) does not match: corrupt ${label}`);
  }
  return data;
}
