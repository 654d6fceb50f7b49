// An update killed in the middle of a download (SIGKILL: a closed laptop, `kill -9`) resumes on the
// next run from the partial kept in the cache, asking only for the bytes it does not have.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { appOf } from '../../helpers/json-output.js';
import { sha256 } from '../../helpers/sha256.js';
import { partialsDir } from '../../helpers/temp-files.js';
import { BIG_PAD_BYTES, publish, startCli, useUpdateSuite, waitFor } from './harness.js';

interface Sidecar {
  size: number;
  ranges: Array<[number, number]>;
}

void describe('update: resume across runs', () => {
  const suite = useUpdateSuite();

  for (const segmented of [false, true]) {
    void test(`${segmented ? 'segmented' : 'plain'}: killed mid-download, the next run fetches only the rest`, async () => {
      const app = segmented ? 'rs-seg' : 'rs-plain';
      const w = await suite.world('manage_desktop_files: false');
      await w.forgeRecipe(app, `segmented_downloads: ${segmented}`);
      const body = await fixtureAppImage(app, '1.0.0', { padBytes: BIG_PAD_BYTES });
      const asset = await publish(suite.sim, app, '1.0.0', { body });
      // Slow enough (about 4 s) for the kill to land in the middle.
      suite.sim.fault(asset.path, { throttleBytesPerSec: 2.5 * 1024 * 1024, methods: ['GET'] });
      const partials = partialsDir(w.env);
      const bg = startCli(['--json', 'update'], w.env);
      const covered = await waitFor('a third of the file recorded', async () => {
        const dirs = await readdir(partials).catch(() => []);
        for (const d of dirs) {
          const text = await readFile(join(partials, d, 'state.json'), 'utf8').catch(() => '');
          if (!text) continue;
          const s = JSON.parse(text) as Sidecar;
          const n = s.ranges.reduce((sum, [a, b]) => sum + (b - a), 0);
          if (n >= body.length / 3) return n;
        }
        return undefined;
      });
      bg.child.kill('SIGKILL');
      const killed = await bg.done;
      assert.equal(killed.signal, 'SIGKILL', 'the run was killed before it finished');
      suite.sim.clearFaults();

      suite.sim.clearRequests();
      const run = await w.update();
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal(appOf(run, app).status, 'updated');
      assert.equal(sha256(await readFile(join(w.storageDir, `${app}.AppImage`))), sha256(body));
      const gets = suite.sim.requests.filter((r) => r.method === 'GET' && r.path === asset.path);
      const ranged = gets.filter((r) => typeof r.headers.range === 'string');
      assert.ok(ranged.length > 0, 'the rest was asked for with Range');
      let asked = 0;
      for (const r of ranged) {
        assert.ok(typeof r.headers['if-range'] === 'string', 'every Range carries If-Range');
        const m = /^bytes=(\d+)-(\d*)$/.exec(String(r.headers.range));
        assert.ok(m, String(r.headers.range));
        asked += (m[2] === '' ? body.length - 1 : Number(m[2])) - Number(m[1]) + 1;
      }
      assert.ok(asked <= body.length - covered, `asked again for ${asked} bytes, ${covered} were kept`);
      assert.deepEqual(await readdir(partials), [], 'the partial is cleared after the install');
    });
  }
});
