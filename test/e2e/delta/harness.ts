// Shared setup of the block map end-to-end tests: the zsync suite's AppImages (real images whose
// versions share most bytes) with electron-builder style block maps appended, published on the sim.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before } from 'node:test';
import { withBlockMap } from '../../../fixtures/blockmap.js';
import { parseBlockMap, tailJsonLength, type BlockMap } from '../../../src/transfer/blockmap/format.js';
import {
  buildFixtures,
  FIXTURE_NAME,
  useZsyncSuite,
  V1,
  V2,
  type World,
  type ZsyncSuite,
} from '../zsync/harness.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';
import { execInstalled } from '../../helpers/run-program.js';
import { sha256 } from '../../helpers/sha256.js';
import type { UpdateAppJson } from '../../helpers/update-json.js';

/** The fixture builds with block maps appended. */
export interface MappedFixtures {
  v1: Buffer;
  /** v2 sharing most bytes with v1. */
  v2: Buffer;
  /** v2 sharing almost nothing with v1. */
  v2Large: Buffer;
}

/** The zsync suite plus the block map builds. */
export interface BlockmapSuite extends ZsyncSuite {
  readonly mapped: MappedFixtures;
}

/** Registers the hooks of a block map test file. */
export function useBlockmapSuite(): BlockmapSuite {
  const suite = useZsyncSuite();
  let mapped: MappedFixtures | undefined;
  before(async () => {
    const fx = await buildFixtures();
    const [v1, v2, v2Large] = await Promise.all([fx.v1, fx.v2Small, fx.v2Large].map((b) => withBlockMap(b)));
    mapped = { v1: v1!, v2: v2!, v2Large: v2Large! };
  });
  return {
    get sim() {
      return suite.sim;
    },
    get fx() {
      return suite.fx;
    },
    get mapped() {
      if (!mapped) throw new Error('the block map fixtures are used before their hook ran');
      return mapped;
    },
    world: () => suite.world(),
  };
}

/** A home with the recipe of `app` and `v1` installed by a first (plain) update. */
export async function installedV1(suite: BlockmapSuite, app: string, v1: Buffer, extra = ''): Promise<World> {
  const world = await suite.world();
  await world.recipe(app, extra);
  publishHubRelease(suite.sim, app, V1, v1);
  const run = await world.update();
  const o = appOf(run, app);
  assert.equal(o.status, 'updated', run.stdout);
  assert.equal(o.method, 'plain', 'nothing to seed from on the first install');
  assert.deepEqual(o.warnings, []);
  return world;
}

/** The block map at the end of `body` (which must have one). */
export function mapOf(body: Buffer): BlockMap {
  const length = tailJsonLength(body.subarray(body.length - 4), body.length);
  const map =
    length === undefined
      ? undefined
      : parseBlockMap(body.subarray(body.length - 4 - length, body.length - 4), body.length);
  assert.ok(map, 'the fixture carries a block map');
  return map;
}

/** v2 is installed, byte-identical to `body`, runs, and is recorded in state; no temp files left. */
export async function assertInstalled(
  world: World,
  app: string,
  o: UpdateAppJson,
  body: Buffer,
): Promise<void> {
  assert.equal(o.status, 'updated', JSON.stringify(o));
  assert.equal(o.to_version, V2);
  assert.ok(o.path);
  assert.equal(sha256(await readFile(o.path)), sha256(body), 'installed file equals the published v2');
  assert.equal(await execInstalled(o.path), `${FIXTURE_NAME} ${V2}`);
  const state = (await world.state()).apps[app]?.installed;
  assert.equal(state?.version, V2);
  assert.equal(state?.sha256, sha256(body));
  assert.deepEqual(await world.temps(), [], 'no temp files left');
}

/** Bytes of `next`'s chunks that `old` does not hold (by checksum and size). */
export function changedBytes(old: BlockMap, next: BlockMap): number {
  const have = new Set(old.checksums.map((c, i) => `${c}:${old.sizes[i]}`));
  return next.sizes.reduce((sum, s, i) => sum + (have.has(`${next.checksums[i]}:${s}`) ? 0 : s), 0);
}
