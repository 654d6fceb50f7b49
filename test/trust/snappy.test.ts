import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compress } from 'snappyjs';
import { decodeSnappy, snappyLength } from '../../src/trust/provenance/snappy.js';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
};

void test('a raw Snappy block decodes; its varint preamble gives the length', () => {
  const json = Buffer.from(JSON.stringify({ mediaType: 'x', pad: 'a'.repeat(5000) }));
  const packed = compress(json);
  assert.equal(snappyLength(packed), json.length);
  assert.deepEqual(decodeSnappy(packed, 'blob'), json);
});

void test('a preamble announcing more than the limit is refused before decoding', () => {
  const packed = compress(Buffer.alloc(10_000, 0x61));
  assert.equal(
    codeOf(() => decodeSnappy(packed, 'blob', 9_999)),
    'PROVENANCE_INVALID',
  );
  // 0xff 0xff 0xff 0xff 0x0f = 2^32 - 1 bytes announced, three bytes of body: no allocation happens.
  const huge = Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x00, 0x01, 0x02]);
  assert.equal(snappyLength(huge), 2 ** 32 - 1);
  assert.equal(
    codeOf(() => decodeSnappy(huge, 'blob')),
    'PROVENANCE_INVALID',
  );
});

void test('framed Snappy, a broken varint and a corrupt body are PROVENANCE_INVALID', () => {
  const framed = Buffer.concat([
    Buffer.from([0xff, 0x06, 0x00, 0x00]),
    Buffer.from('sNaPpY'),
    Buffer.alloc(8),
  ]);
  assert.equal(
    codeOf(() => decodeSnappy(framed, 'blob')),
    'PROVENANCE_INVALID',
  );
  assert.equal(snappyLength(Buffer.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x01])), undefined);
  assert.equal(
    codeOf(() => decodeSnappy(Buffer.from([0x80, 0x80]), 'blob')),
    'PROVENANCE_INVALID',
  );
  const packed = compress(Buffer.from('{"a":"' + 'b'.repeat(300) + '"}'));
  assert.equal(
    codeOf(() => decodeSnappy(packed.subarray(0, packed.length - 5), 'blob')),
    'PROVENANCE_INVALID',
  );
});
