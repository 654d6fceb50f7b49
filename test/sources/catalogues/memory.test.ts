// Peak memory of every catalogue path (issue 27 §4): `search` fetching and parsing, then reading
// back from the cache, an AM list, an AM line, a keeper index and an AppImageHub feed. The test
// suite runs it on small documents (the bench's smoke mode); `npm run reliability` sets
// KEEPER_RELIABILITY=1 and runs it on documents just under the 32 MiB cap, where each run must stay
// under 150 MB peak RSS. A memory bound, not a timing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startSim, type Sim } from '../../../sim/index.js';
import {
  CATALOGUE_MEMORY_LIMIT_MB,
  measureCatalogueMemory,
  NEAR_CAP_BYTES,
} from '../../helpers/catalogue-memory.js';

const full = process.env.KEEPER_RELIABILITY === '1';
let sim: Sim;
before(async () => {
  sim = await startSim();
});
after(() => sim.stop());

void test(`every catalogue path stays under ${CATALOGUE_MEMORY_LIMIT_MB} MB peak RSS (${full ? 'near the 32 MiB cap' : 'smoke sizes'})`, async () => {
  const rows = await measureCatalogueMemory(sim, full ? NEAR_CAP_BYTES : 16 * 1024);
  assert.equal(rows.length, 10);
  for (const r of rows) {
    assert.equal(r.code, 0, `${r.case}, ${r.run}: search found nothing`);
    assert.ok(
      r.rssMb <= CATALOGUE_MEMORY_LIMIT_MB,
      `${r.case}, ${r.run}: ${r.rssMb.toFixed(0)} MB peak RSS, over ${CATALOGUE_MEMORY_LIMIT_MB} MB`,
    );
  }
  // Reading the cache back finds what the fetch found: the bound never changes the results.
  for (let i = 0; i < rows.length; i += 2) assert.equal(rows[i]?.hits, rows[i + 1]?.hits, rows[i]?.case);
});
