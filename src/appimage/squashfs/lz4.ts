import { corrupt } from './errors.js';

/**
 * Decodes one raw LZ4 block (the format SquashFS stores, no frame header). Output is capped at
 * `maxOut` so a hostile block cannot make us allocate more than one SquashFS block.
 */
export function decodeLz4Block(input: Uint8Array, maxOut: number): Buffer {
  const out = Buffer.allocUnsafe(maxOut);
  let ip = 0;
  let op = 0;
  const fail = (why: string): never => {
    throw corrupt(`LZ4 block: ${why}`);
  };
  const readLength = (base: number): number => {
    let len = base;
    if (base === 15) {
      for (;;) {
        if (ip >= input.length) fail('truncated length');
        const b = input[ip++] ?? 0;
        len += b;
        if (len > maxOut) fail('length exceeds the block size');
        if (b !== 255) break;
      }
    }
    return len;
  };
  while (ip < input.length) {
    const token = input[ip++] ?? 0;
    const litLen = readLength(token >> 4);
    if (ip + litLen > input.length) fail('literals run past the input');
    if (op + litLen > maxOut) fail('output exceeds the block size');
    out.set(input.subarray(ip, ip + litLen), op);
    ip += litLen;
    op += litLen;
    if (ip >= input.length) break; // the last sequence carries literals only
    if (ip + 2 > input.length) fail('truncated match offset');
    const offset = (input[ip] ?? 0) | ((input[ip + 1] ?? 0) << 8);
    ip += 2;
    if (offset === 0 || offset > op) fail('match offset outside the output');
    const matchLen = readLength(token & 15) + 4;
    if (op + matchLen > maxOut) fail('output exceeds the block size');
    // Byte by byte because a match may overlap the bytes it is producing.
    for (let i = 0; i < matchLen; i++, op++) out[op] = out[op - offset] ?? 0;
  }
  return out.subarray(0, op);
}
