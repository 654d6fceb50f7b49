// Progress bars on a real terminal: the total bar is always the last bar line, and a single slow
// download advances in many small steps (not in jumps of the download's write batches).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { runCliInPty, screenFrames, type ScreenFrame } from '../../helpers/pty.js';
import { publish, useUpdateSuite, type World } from './harness.js';

// A bar line as the renderer draws it: ` <name> |<bar>| <done> / <size> ...`.
const BAR = /^ (\S+) +\|[^|]*\| (\S+ \S+) \/ /;

function liveEnv(w: World): NodeJS.ProcessEnv {
  // The temp home asks for plain output; bars need colours allowed and a terminal.
  const env: NodeJS.ProcessEnv = { ...w.env, TERM: 'xterm' };
  delete env.NO_COLOR;
  return env;
}

function bars(frame: ScreenFrame): { index: number; name: string; done: string }[] {
  return frame.lines.flatMap((line, index) => {
    const m = BAR.exec(line);
    return m?.[1] && m[2] ? [{ index, name: m[1], done: m[2] }] : [];
  });
}

void describe('update on a terminal: progress bars', () => {
  const suite = useUpdateSuite();

  void test('the total bar sits below every app bar in every frame', async () => {
    const w = await suite.world('manage_desktop_files: false');
    const apps = ['pb-one', 'pb-two', 'pb-three'];
    for (const app of apps) {
      await w.forgeRecipe(app);
      const body = await fixtureAppImage(app, '1.0.0', { padBytes: 400 * 1024 });
      const { path } = await publish(suite.sim, app, '1.0.0', { body });
      // Slow enough that the three downloads overlap and the screen is redrawn many times.
      suite.sim.fault(path, { throttleBytesPerSec: 250 * 1024, methods: ['GET'] });
    }
    const run = await runCliInPty(['update'], { env: liveEnv(w), columns: 120 });
    assert.equal(run.code, 0, run.raw);
    const frames = screenFrames(run.chunks);
    const withTotal = frames.filter((f) => bars(f).some((b) => b.name === 'total'));
    assert.ok(withTotal.length > 3, `the total bar was drawn:\n${run.raw}`);
    const seen = new Set<string>();
    for (const frame of frames) {
      const drawn = bars(frame);
      const total = drawn.find((b) => b.name === 'total');
      for (const b of drawn) seen.add(b.name);
      if (!total) continue;
      const below = drawn.filter((b) => b.name !== 'total' && b.index > total.index);
      assert.deepEqual(below, [], `an app bar below the total:\n${frame.lines.join('\n')}`);
    }
    for (const app of apps) assert.ok(seen.has(app), `${app} had a bar:\n${run.raw}`);
  });

  void test('a single slow download advances in many small steps', async (t) => {
    const w = await suite.world('manage_desktop_files: false');
    await w.forgeRecipe('pb-slow');
    const body = await fixtureAppImage('pb-slow', '1.0.0', { padBytes: 1536 * 1024 });
    const { path } = await publish(suite.sim, 'pb-slow', '1.0.0', { body });
    const rate = 512 * 1024;
    suite.sim.fault(path, { throttleBytesPerSec: rate, methods: ['GET'] });
    const run = await runCliInPty(['update'], { env: liveEnv(w), columns: 120 });
    assert.equal(run.code, 0, run.raw);
    const steps: { at: number; done: string }[] = [];
    for (const frame of screenFrames(run.chunks)) {
      const bar = bars(frame).find((b) => b.name === 'pb-slow');
      if (bar && bar.done !== steps.at(-1)?.done) steps.push({ at: frame.at, done: bar.done });
    }
    const seconds = body.length / rate;
    const gaps = steps.slice(1).map((s, i) => s.at - (steps[i]?.at ?? s.at));
    const largest = Math.max(0, ...gaps);
    t.diagnostic(
      `${steps.length} visible steps in ${seconds.toFixed(1)} s of transfer; largest gap ${largest} ms`,
    );
    // At least four visible steps per second of transfer (a redraw every 250 ms or sooner on
    // average); batching writes of 256 KiB gave two.
    assert.ok(
      steps.length >= Math.floor(seconds * 4),
      `${steps.length} steps in ${seconds.toFixed(1)} s (largest gap ${largest} ms): ${steps.map((s) => s.done).join(', ')}`,
    );
    // The byte count only ever grows.
    const bytes = steps.map((s) => parseDone(s.done));
    assert.deepEqual(
      bytes,
      [...bytes].sort((a, b) => a - b),
    );
  });
});

function parseDone(text: string): number {
  const [value, unit] = text.split(' ');
  const scale: Record<string, number> = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9 };
  return Number(value) * (scale[unit ?? 'B'] ?? 1);
}
