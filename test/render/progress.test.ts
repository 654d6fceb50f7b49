// The progress renderer on a (fake) terminal with a mocked clock: the total bar is always the
// last bar, and while bytes come in every redraw (8 a second) shows the new count.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import { createOutput } from '../../src/render/output.js';
import { createProgressRenderer } from '../../src/render/progress.js';
import { screenFrames, type PtyRun } from '../helpers/pty.js';

const BAR = /^ (\S+) +\|[^|]*\| (\S+ \S+) \/ \S+ \S+(?: {2}(\S+ \S+))?/;

function terminal(): { render: ReturnType<typeof createProgressRenderer>; chunks: PtyRun['chunks'] } {
  const chunks: PtyRun['chunks'] = [];
  const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
  stderr.on('data', (b: Buffer) => chunks.push({ at: Date.now(), text: b.toString('utf8') }));
  const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
  const out = createOutput({ json: false, quiet: false, verbose: false, color: true }, stdout, stderr, {});
  return { render: createProgressRenderer(out, () => undefined), chunks };
}

function barsOf(lines: string[]): { index: number; name: string; done: string; rate: string }[] {
  return lines.flatMap((line, index) => {
    const m = BAR.exec(line);
    return m?.[1] && m[2] ? [{ index, name: m[1], done: m[2], rate: m[3] ?? '' }] : [];
  });
}

// PassThrough delivers 'data' on a later tick.
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

void describe('progress renderer', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'] }));
  afterEach(() => mock.timers.reset());

  void test('an app bar added after the total goes above it', async () => {
    const { render, chunks } = terminal();
    const start = (app: string): void =>
      render.onEvent({
        type: 'download:start',
        app,
        url: 'http://127.0.0.1/x',
        total: 1000,
        segmented: false,
      });
    start('one');
    start('two');
    mock.timers.tick(125);
    start('three');
    render.onEvent({ type: 'download:progress', app: 'three', received: 10, total: 1000 });
    mock.timers.tick(125);
    start('four');
    mock.timers.tick(125);
    render.onEvent({ type: 'download:end', app: 'one', bytes: 1000 });
    mock.timers.tick(125);
    await flush();
    render.stop();
    const frames = screenFrames(chunks);
    const last = frames.map((f) => barsOf(f.lines)).filter((b) => b.length === 5);
    assert.ok(last.length > 0, chunks.map((c) => c.text).join(''));
    for (const frame of frames) {
      const bars = barsOf(frame.lines);
      const total = bars.find((b) => b.name === 'total');
      if (!total) continue;
      assert.deepEqual(
        bars.filter((b) => b.index > total.index),
        [],
        frame.lines.join('\n'),
      );
    }
  });

  void test('every redraw shows the bytes that came since the last one; a pause lowers the rate', async () => {
    const { render, chunks } = terminal();
    render.onEvent({
      type: 'download:start',
      app: 'slow',
      url: 'http://127.0.0.1/x',
      total: 5_000_000,
      segmented: false,
    });
    const shown: string[] = [];
    let received = 0;
    for (let frame = 0; frame < 20; frame++) {
      // A slow link: 5 kB per 100 ms, reported as the download writes it.
      received += 6_250;
      render.onEvent({ type: 'download:progress', app: 'slow', received, total: 5_000_000 });
      mock.timers.tick(125);
      await flush();
      const bar = barsOf(screenFrames(chunks).at(-1)?.lines ?? []).find((b) => b.name === 'slow');
      shown.push(bar?.done ?? '');
    }
    assert.equal(new Set(shown).size, shown.length, shown.join(', '));
    const rateBefore = barsOf(screenFrames(chunks).at(-1)?.lines ?? [])[0]?.rate;
    mock.timers.tick(2000);
    await flush();
    const rateAfter = barsOf(screenFrames(chunks).at(-1)?.lines ?? [])[0]?.rate;
    assert.ok(
      rateBefore && rateAfter && parseFloat(rateAfter) < parseFloat(rateBefore),
      `${rateBefore} -> ${rateAfter}`,
    );
    render.stop();
  });
});
