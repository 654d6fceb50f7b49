import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startSim } from '../../sim/index.js';
import { raw } from './raw-http.js';

void test('stop() returns with a stalled client connected, and the client sees the connection end', async () => {
  const sim = await startSim();
  const url = sim.putAsset('/big', { size: 10_000_000, seed: 1 });
  sim.fault('/big', { stallAfterBytes: 1000 });
  let received = 0;
  const clientDone = new Promise<{ complete: boolean }>((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= 1000) stalled();
      });
      res.on('close', () => resolve({ complete: res.complete }));
      res.on('error', () => undefined);
    });
    req.on('error', () => resolve({ complete: false }));
    req.end();
  });
  let stalled!: () => void;
  await new Promise<void>((resolve) => (stalled = resolve));
  // Also hold an idle keep-alive connection and a request waiting on latency.
  sim.fault('/slow', { latencyMs: 60_000 });
  const slow = raw(`${sim.url}/slow`).catch((err: unknown) => err);
  await new Promise((resolve) => setImmediate(resolve));

  await sim.stop();
  const result = await clientDone;
  assert.equal(result.complete, false);
  assert.equal(received, 1000);
  assert.ok((await slow) instanceof Error);
  await assert.rejects(raw(url));
  await sim.stop(); // idempotent
});

void test('stop() with a throttled download in flight returns promptly', async () => {
  const sim = await startSim();
  const url = sim.putSecondAsset('/slow', { size: 1_000_000, seed: 2 });
  sim.fault('/slow', { throttleBytesPerSec: 1000 });
  const download = raw(url).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 50));
  await sim.stop();
  const res = await download;
  assert.notEqual(res?.complete, true);
});

void test('startSim refuses a non-loopback host', async () => {
  await assert.rejects(startSim({ host: '0.0.0.0' }), /non-loopback/);
});
