import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uncompress } from 'snappyjs';
import { startSim } from '../../sim/index.js';

void test('sim: attestations inline, through bundle_url Snappy blobs on the second origin, and 404', async () => {
  const sim = await startSim();
  try {
    const hex = 'cd'.repeat(32);
    const bundle = { mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json', n: 1 };
    const url = (repo: string, h = hex): string =>
      `${sim.hubApiUrl}/repos/o/${repo}/attestations/sha256:${h}`;
    sim.hub.setAttestations('o', 'inline', hex, [bundle]);
    sim.hub.setAttestations('O', 'Linked', hex, [bundle], 'bundle_url');
    const inline = (await (await fetch(url('inline'))).json()) as { attestations: { bundle: unknown }[] };
    assert.deepEqual(inline.attestations[0]?.bundle, bundle);
    const linked = (await (await fetch(url('linked'))).json()) as {
      attestations: { bundle: unknown; bundle_url: string }[];
    };
    const entry = linked.attestations[0];
    assert.equal(entry?.bundle, null);
    assert.ok(entry?.bundle_url.startsWith(sim.secondUrl));
    const blob = Buffer.from(await (await fetch(entry.bundle_url)).arrayBuffer());
    assert.deepEqual(JSON.parse(uncompress(blob).toString('utf8')), bundle);
    assert.equal((await fetch(url('inline', 'ef'.repeat(32)))).status, 404);
    assert.equal((await fetch(url('nothing'))).status, 404);
  } finally {
    await sim.stop();
  }
});
