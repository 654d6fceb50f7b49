import { malformed, unsupported } from './errors.js';

/** One OpenPGP packet: its tag and body. */
export interface Packet {
  tag: number;
  body: Buffer;
}

/** Packet tags we read (RFC 4880 §4.3). */
export const TAG = {
  signature: 2,
  publicKey: 6,
  userId: 13,
  publicSubkey: 14,
  userAttribute: 17,
  trust: 12,
} as const;

const MAX_PACKETS = 512;

/**
 * Splits binary OpenPGP data into packets (old and new header formats). Every length is checked
 * against the bytes present; partial and indeterminate lengths, which only data packets may use,
 * are refused.
 */
export function parsePackets(data: Buffer): Packet[] {
  const packets: Packet[] = [];
  let pos = 0;
  while (pos < data.length) {
    if (packets.length >= MAX_PACKETS) throw malformed(`more than ${MAX_PACKETS} packets`);
    const first = data[pos] ?? 0;
    if ((first & 0x80) === 0) throw malformed(`byte ${pos} is not a packet header`);
    let tag: number;
    let length: number;
    let header: number;
    if (first & 0x40) {
      tag = first & 0x3f;
      const o1 = byteAt(data, pos + 1);
      if (o1 < 192) {
        length = o1;
        header = 2;
      } else if (o1 < 224) {
        length = ((o1 - 192) << 8) + byteAt(data, pos + 2) + 192;
        header = 3;
      } else if (o1 === 255) {
        length = uint32At(data, pos + 2);
        header = 6;
      } else {
        throw unsupported(`packet ${tag} uses partial body lengths`);
      }
    } else {
      tag = (first >> 2) & 0x0f;
      const lengthType = first & 3;
      if (lengthType === 3) throw unsupported(`packet ${tag} has an indeterminate length`);
      const n = 1 << lengthType;
      if (pos + 1 + n > data.length) throw malformed('truncated packet header');
      length = data.readUIntBE(pos + 1, n);
      header = 1 + n;
    }
    const start = pos + header;
    if (start + length > data.length) throw malformed(`packet ${tag} is longer than the data`);
    packets.push({ tag, body: data.subarray(start, start + length) });
    pos = start + length;
  }
  return packets;
}

function byteAt(data: Buffer, at: number): number {
  const v = data[at];
  if (v === undefined) throw malformed('truncated packet header');
  return v;
}

function uint32At(data: Buffer, at: number): number {
  if (at + 4 > data.length) throw malformed('truncated packet header');
  return data.readUInt32BE(at);
}

/** A bounds-checked reader over a packet body. */
export class Reader {
  private pos = 0;

  constructor(
    private readonly buf: Buffer,
    private readonly what: string,
  ) {}

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  u8(): number {
    return this.bytes(1)[0] ?? 0;
  }

  u16(): number {
    return this.bytes(2).readUInt16BE(0);
  }

  u32(): number {
    return this.bytes(4).readUInt32BE(0);
  }

  bytes(n: number): Buffer {
    if (n < 0 || this.pos + n > this.buf.length) throw malformed(`${this.what} is truncated`);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** A multiprecision integer (RFC 4880 §3.2): its magnitude bytes, leading zero bytes removed. */
  mpi(): Buffer {
    const bits = this.u16();
    const raw = this.bytes((bits + 7) >> 3);
    let i = 0;
    while (i < raw.length - 1 && raw[i] === 0) i++;
    return raw.subarray(i);
  }

  rest(): Buffer {
    return this.bytes(this.remaining);
  }
}
