// The body pump writes in batches for speed, but never lets more than PROGRESS_INTERVAL_MS pass between
// writes while bytes wait: progress (reported after each write) keeps moving on a slow link.
import assert from 'node:assert/strict';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, mock, test } from 'node:test';
import { Attempt } from '../../../src/transfer/download/attempt.js';
import { pumpBody, type PumpCursor } from '../../../src/transfer/download/body-pump.js';
import { PROGRESS_INTERVAL_MS } from '../../../src/transfer/progress-interval.js';

void describe('body pump: progress on a slow link', () => {
  const dirs: string[] = [];
  after(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  void test(
    'bytes are written PROGRESS_INTERVAL_MS after the last write at the latest, not when a batch fills',
    { timeout: 10_000 },
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'ak-pump-'));
      dirs.push(dir);
      const file = await open(join(dir, 'body'), 'w+');
      // Created before the clock is mocked: its stall timer stays a real (long) one.
      const attempt = new Attempt(undefined, 60_000);
      mock.timers.enable({ apis: ['setTimeout', 'Date'] });
      try {
        const body = new PassThrough();
        const cursor: PumpCursor = { received: 0, written: 0 };
        const writes: number[] = [];
        let wrote: () => void = () => undefined;
        const pumped = pumpBody(body, {
          file,
          cursor,
          attempt,
          limit: () => undefined,
          onWritten: () => {
            writes.push(cursor.written);
            wrote();
          },
        });
        const nextWrite = (): Promise<void> => new Promise((resolve) => (wrote = resolve));

        body.write(Buffer.alloc(1000, 1));
        await new Promise((r) => setImmediate(r));
        mock.timers.tick(PROGRESS_INTERVAL_MS - 1);
        await new Promise((r) => setImmediate(r));
        assert.deepEqual(writes, [], 'held while the batch may still fill');
        let written = nextWrite();
        mock.timers.tick(1);
        await written;
        assert.deepEqual(writes, [1000]);

        // Rare chunks: each is written PROGRESS_INTERVAL_MS after it came, while the body stays open.
        for (const size of [3000, 500]) {
          body.write(Buffer.alloc(size, 2));
          await new Promise((r) => setImmediate(r));
          written = nextWrite();
          mock.timers.tick(PROGRESS_INTERVAL_MS);
          await written;
        }
        assert.deepEqual(writes, [1000, 4000, 4500]);
        body.end();
        assert.equal(await pumped, false);
        assert.equal(cursor.written, 4500);
      } finally {
        mock.timers.reset();
        attempt.dispose();
        await file.close();
      }
    },
  );
});
