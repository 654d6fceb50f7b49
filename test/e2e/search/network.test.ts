// `search` goes out the way every other command does: config.yml's `http_proxy`/`https_proxy`
// (docs/network.md) carry its catalogue requests, not a direct line the company network blocks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { serveCatalogues, type ServedCatalogues } from '../../../sim/index.js';
import { useSimSuite } from '../../helpers/sim-suite.js';
import { makeSimWorld } from '../../helpers/sim-world.js';
import { startTinyproxy, type Tinyproxy } from '../../helpers/tinyproxy.js';

let proxy: Tinyproxy;
const suite = useSimSuite((sim, served: ServedCatalogues) =>
  makeSimWorld(sim, {
    configLines: [`http_proxy: ${proxy.url}`, 'catalogues:', `  - ${served.am}`],
  }),
);

void describe('search and config.yml network settings', () => {
  before(async () => {
    proxy = await startTinyproxy();
  });
  after(async () => {
    await proxy.stop();
  });

  void test("config.yml's proxy carries the catalogue request", async () => {
    const served = serveCatalogues(suite.sim, {
      am: [{ name: 'obsidian', description: 'Obsidian (AppImage).', site: 'e2e/Obsidian' }],
    });
    const w = await suite.world(served);
    const seen = (await proxy.requests()).gets.length;
    const r = await w.run(['search', '--refresh', 'obsidian']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /obsidian/);
    const gets = (await proxy.requests()).gets.slice(seen);
    assert.ok(
      gets.some((g) => g.startsWith(`GET ${served.am}`)),
      `the catalogue went through the proxy: ${gets.join('\n')}`,
    );
  });
});
