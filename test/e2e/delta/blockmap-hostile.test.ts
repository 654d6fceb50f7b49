/**
 * Hostile block map tails through the built CLI (issue 18 §2): the audit's ~48 KiB tail that
 * inflates to 48 MiB of `[`, on the new file and on the installed one. The CLI runs with a 128 MB
 * heap, far below the gigabytes parsing such a tail took: the update must still succeed, as one
 * full download, the new file's tail reported in the fallback warning and the installed file's
 * treated quietly as no block map.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, describe, test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { withTail } from '../../../fixtures/blockmap.js';
import { V1, V2 } from '../zsync/harness.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';
import { CLI_PATH } from '../../helpers/run-cli.js';
import { sha256 } from '../../helpers/sha256.js';
import { makeSimWorld, type SimWorld } from '../../helpers/sim-world.js';
import type { UpdateAppJson, UpdateJson } from '../../helpers/update-json.js';
import { useBlockmapSuite } from './harness.js';

const suite = useBlockmapSuite();
const NESTED_TAIL = deflateRawSync(Buffer.alloc(48 * 1024 * 1024 - 1, '['), { level: 9 });
const worlds: SimWorld[] = [];
after(async () => Promise.all(worlds.map((w) => w.home.cleanup())));

/** A world whose CLI has a 128 MB heap, with `v1` of `app` installed and `v2` published. */
async function updatedFrom(
  app: string,
  v1: Buffer,
  v2: Buffer,
): Promise<{ world: SimWorld; o: UpdateAppJson }> {
  const world = await makeSimWorld(suite.sim, {
    configLines: ['stall_timeout: 5'],
    cli: { path: CLI_PATH, env: { NODE_OPTIONS: '--max-old-space-size=128' } },
  });
  worlds.push(world);
  await world.writeForgeRecipe(app);
  publishHubRelease(suite.sim, app, V1, v1);
  const first = await world.run<UpdateJson>(['--json', 'update', app]);
  assert.equal(appOf(first, app).status, 'updated', first.stderr);
  publishHubRelease(suite.sim, app, V2, v2);
  const run = await world.run<UpdateJson>(['--json', 'update', app]);
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  const o = appOf(run, app);
  assert.equal(o.status, 'updated', JSON.stringify(o));
  assert.equal(o.method, 'plain', JSON.stringify(o));
  assert.equal(o.bytes_reused, 0);
  assert.ok(o.path);
  assert.equal(sha256(await readFile(o.path)), sha256(v2), 'the installed file is the published v2');
  return { world, o };
}

void describe('hostile block map tails, end to end', () => {
  void test('a nested tail on the new file: full download, the warning says why', async () => {
    const { o } = await updatedFrom('bmh-new', suite.mapped.v1, withTail(suite.fx.v2Small, NESTED_TAIL));
    assert.equal(o.warnings.length, 1, JSON.stringify(o.warnings));
    assert.match(
      o.warnings[0] ?? '',
      /blockmap failed \(BLOCKMAP_NONE_REMOTE: .*carries no block map \(its JSON inflates to more than the \d+ bytes a map of \d+ bytes can need\)\); fell back to a full download/,
    );
  });

  void test('a nested tail on the installed file: no block map, a quiet full download', async () => {
    const { o } = await updatedFrom('bmh-old', withTail(suite.fx.v1, NESTED_TAIL), suite.mapped.v2);
    assert.deepEqual(o.warnings, []);
  });
});
