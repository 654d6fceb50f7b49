import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  byterangesBoundary,
  parseContentRange,
  type ContentRange,
} from '../../../src/transfer/ranges/content-range.js';
import { MultipartByteranges, type PartSink } from '../../../src/transfer/zsync/multipart-byteranges.js';

class Collect implements PartSink {
  parts: { range: ContentRange; data: Buffer[]; ended: boolean }[] = [];
  beginPart(range: ContentRange): void {
    this.parts.push({ range, data: [], ended: false });
  }
  data(chunk: Buffer): void {
    this.parts.at(-1)!.data.push(Buffer.from(chunk));
  }
  endPart(): void {
    this.parts.at(-1)!.ended = true;
  }
  summary(): string[] {
    return this.parts.map(
      (p) => `${p.range.first}-${p.range.last}:${Buffer.concat(p.data).toString()}:${p.ended}`,
    );
  }
}

function body(boundary: string, parts: [number, number, string][], preamble = '\r\n'): Buffer {
  let s = preamble;
  for (const [a, b, text] of parts)
    s += `--${boundary}\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes ${a}-${b}/100\r\n\r\n${text}\r\n`;
  return Buffer.from(`${s}--${boundary}--\r\n`);
}

// Part data that contains the boundary text itself: parts are cut by length, never by searching.
const PARTS: [number, number, string][] = [
  [0, 9, '0123456789'],
  [20, 33, '--BOUND inside'],
  [90, 99, 'abcdefghij'],
];

void describe('MultipartByteranges', () => {
  void test('parses every part whatever the chunking', () => {
    const whole = body('BOUND', PARTS);
    const expected = ['0-9:0123456789:true', '20-33:--BOUND inside:true', '90-99:abcdefghij:true'];
    for (let size = 1; size <= whole.length; size++) {
      const sink = new Collect();
      const p = new MultipartByteranges('BOUND', sink);
      for (let i = 0; i < whole.length; i += size) p.push(whole.subarray(i, i + size));
      p.finish();
      assert.ok(p.complete, `chunk ${size}`);
      assert.deepEqual(sink.summary(), expected, `chunk ${size}`);
    }
  });

  void test('a body cut inside a part is an error; a missing closing delimiter is not', () => {
    const whole = body('B', PARTS);
    const cut = new MultipartByteranges('B', new Collect());
    cut.push(whole.subarray(0, 60));
    assert.throws(() => cut.finish(), { code: 'ZSYNC_RANGE_INVALID' });

    const sink = new Collect();
    const open = new MultipartByteranges('B', sink);
    open.push(whole.subarray(0, whole.indexOf('--B--')));
    open.finish();
    assert.equal(sink.parts.length, 3);
    assert.equal(open.complete, false);
  });

  void test('a part without Content-Range, or garbage instead of a boundary, is an error', () => {
    const p = new MultipartByteranges('B', new Collect());
    assert.throws(() => p.push(Buffer.from('--B\r\nContent-Type: text/plain\r\n\r\nxx')), {
      code: 'ZSYNC_RANGE_INVALID',
    });
    const q = new MultipartByteranges('B', new Collect());
    assert.throws(() => q.push(Buffer.alloc(70 * 1024, 0x41)), { code: 'ZSYNC_RANGE_INVALID' });
  });
});

void describe('Content-Range and boundary headers', () => {
  void test('parseContentRange', () => {
    assert.deepEqual(parseContentRange('bytes 0-99/1000'), { first: 0, last: 99, total: 1000 });
    assert.deepEqual(parseContentRange('bytes 5-5/*'), { first: 5, last: 5, total: undefined });
    assert.equal(parseContentRange('bytes 10-5/100'), undefined);
    assert.equal(parseContentRange('bytes 0-100/100'), undefined);
    assert.equal(parseContentRange('bytes */100'), undefined);
    assert.equal(parseContentRange(undefined), undefined);
  });

  void test('byterangesBoundary', () => {
    assert.equal(byterangesBoundary('multipart/byteranges; boundary=abc'), 'abc');
    assert.equal(byterangesBoundary('Multipart/ByteRanges; charset=x; Boundary="a b"'), 'a b');
    assert.equal(byterangesBoundary('application/octet-stream'), undefined);
    assert.equal(byterangesBoundary('multipart/byteranges'), undefined);
  });
});
