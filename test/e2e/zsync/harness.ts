// Shared setup of the zsync end-to-end tests: real AppImages whose versions share most blocks,
// control files made by Debian's zsyncmake, a temp home per test pointing at the in-process sim,
// and the built CLI run asynchronously (the sim answers from this very process).
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before } from 'node:test';
import { makeAppImage } from '../../../fixtures/make-appimage.js';
import { generatedBytes, type Sim } from '../../../sim/index.js';
import type { CliRun } from '../../helpers/run-cli.js';
import { runProgram } from '../../helpers/run-program.js';
import { useSimSuite, type SimSuite } from '../../helpers/sim-suite.js';
import { makeSimWorld } from '../../helpers/sim-world.js';
import { isKeeperTemp } from '../../helpers/temp-files.js';
import type { TmpHome } from '../../helpers/tmp-home.js';
import type { UpdateJson } from '../../helpers/update-json.js';

/** Name baked into every fixture: the runtime prints "delta <version>". */
export const FIXTURE_NAME = 'delta';
export const V1 = '1.0.0';
export const V2 = '2.0.0';
/** Incompressible filler inside each image, so the file is a few MiB and mostly filler blocks. */
const FILLER_BYTES = 3 * 1024 * 1024;
const FILLER_PATH = `usr/share/${FIXTURE_NAME}/filler.bin`;

/** The part of state.json these tests read. */
export interface StateJson {
  apps: Record<string, { installed?: { version: string; file: string; sha256: string } } | undefined>;
}

/** The published builds, each built once per test process. */
export interface Fixtures {
  dir: string;
  /** 1.0.0 with filler A. */
  v1: Buffer;
  /** 2.0.0, same filler A plus one small new file: most blocks shared with v1. */
  v2Small: Buffer;
  /** 2.0.0 with a different filler B: almost nothing shared with v1. */
  v2Large: Buffer;
  /** v2Small's content built for aarch64 (same blocks, other ELF machine). */
  v2Arm: Buffer;
  /** 2.0.0 with filler A and one more 256 KiB file: another size than v1. */
  v2Grown: Buffer;
}

let fixtures: Promise<Fixtures> | undefined;

/** Builds (once) the fixture AppImages with mksquashfs. */
export function buildFixtures(): Promise<Fixtures> {
  fixtures ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ak-zsync-'));
    const fillerA = generatedBytes(7, 0, FILLER_BYTES);
    const fillerB = generatedBytes(8, 0, FILLER_BYTES);
    const news = { [`usr/share/${FIXTURE_NAME}/NEWS`]: `What is new in ${V2}\n` };
    const build = async (
      file: string,
      version: string,
      files: Record<string, Buffer | string>,
      arch: 'x86_64' | 'aarch64' = 'x86_64',
    ): Promise<Buffer> => {
      const outFile = join(dir, file);
      await makeAppImage({ outFile, name: FIXTURE_NAME, version, arch, extraFiles: files });
      return readFile(outFile);
    };
    const grown = { [`usr/share/${FIXTURE_NAME}/more.bin`]: generatedBytes(9, 0, 256 * 1024) };
    const [v1, v2Small, v2Large, v2Arm, v2Grown] = await Promise.all([
      build('v1.AppImage', V1, { [FILLER_PATH]: fillerA }),
      build('v2-small.AppImage', V2, { [FILLER_PATH]: fillerA, ...news }),
      build('v2-large.AppImage', V2, { [FILLER_PATH]: fillerB }),
      build('v2-arm.AppImage', V2, { [FILLER_PATH]: fillerA, ...news }, 'aarch64'),
      build('v2-grown.AppImage', V2, { [FILLER_PATH]: fillerA, ...grown }),
    ]);
    return { dir, v1, v2Small, v2Large, v2Arm, v2Grown };
  })();
  return fixtures;
}

/** Removes the fixture directory. */
export async function disposeFixtures(): Promise<void> {
  if (!fixtures) return;
  const { dir } = await fixtures;
  fixtures = undefined;
  await rm(dir, { recursive: true, force: true });
}

let controlCount = 0;

/** A zsync control file for `body` made by Debian's `zsyncmake -u <targetUrl>`. */
export async function zsyncmake(body: Buffer, targetUrl: string): Promise<Buffer> {
  const { dir } = await buildFixtures();
  const n = controlCount++;
  const file = join(dir, `target-${n}.AppImage`);
  const out = join(dir, `target-${n}.zsync`);
  await writeFile(file, body);
  await runProgram('zsyncmake', ['-o', out, '-u', targetUrl, file], { timeoutMs: 20_000 });
  const control = await readFile(out);
  await Promise.all([rm(file), rm(out)]);
  return control;
}

/** The control file with its `SHA-1:` header replaced (the blocks still describe the real file). */
export function withWrongSha1(control: Buffer): Buffer {
  const text = control.toString('latin1');
  const m = /^SHA-1: ([0-9a-f]{40})$/m.exec(text);
  if (!m?.[1]) throw new Error('zsyncmake output has no SHA-1 header');
  const wrong = m[1].replace(/^./, (c) => (c === '0' ? '1' : '0'));
  return Buffer.from(text.replace(m[0], `SHA-1: ${wrong}`), 'latin1');
}

/** A temp home whose config points at the sim, with an app recipe and CLI runners. */
export interface World {
  home: TmpHome;
  storageDir: string;
  /** Writes the forge recipe of `app` (asset glob `<app>-*`) plus extra top-level YAML. */
  recipe(app: string, extra: string): Promise<void>;
  update(): Promise<CliRun<UpdateJson>>;
  /** `update` with human output. */
  updateHuman(): Promise<CliRun>;
  state(): Promise<StateJson>;
  /** Our temp files left in storage_dir. */
  temps(): Promise<string[]>;
  cleanup(): Promise<void>;
}

/** Creates a World against `sim`: hub API on the sim, no proxies, short stall timeout. */
export async function makeWorld(sim: Sim): Promise<World> {
  const base = await makeSimWorld(sim, { configLines: ['stall_timeout: 5'] });
  const { home, storageDir } = base;
  return {
    home,
    storageDir,
    recipe: async (app, extra) => {
      await base.writeForgeRecipe(app, { extra: [extra] });
    },
    update: () => base.run<UpdateJson>(['--json', 'update']),
    updateHuman: () => base.run(['update']),
    state: () => base.readState<StateJson>('throw'),
    temps: async () => (await readdir(storageDir)).filter(isKeeperTemp),
    cleanup: () => home.cleanup(),
  };
}

/** The suite of one test file: the sim, the fixture builds and worlds on the sim. */
export interface ZsyncSuite extends SimSuite<World, []> {
  /** The fixture builds (available inside tests and hooks). */
  readonly fx: Fixtures;
}

/** Registers the hooks of a zsync test file: sim and fixtures before, cleanup after. */
export function useZsyncSuite(): ZsyncSuite {
  const suite = useSimSuite(makeWorld, disposeFixtures);
  let fx: Fixtures | undefined;
  before(async () => {
    fx = await buildFixtures();
  });
  return {
    get sim() {
      return suite.sim;
    },
    get fx() {
      if (!fx) throw new Error('the zsync fixtures are used before their hook ran');
      return fx;
    },
    world: () => suite.world(),
  };
}

/** Every GET the sim received for `path` (query ignored). */
export function getsOf(sim: Sim, path: string): { range: string | undefined }[] {
  return sim.requests
    .filter((r) => r.method === 'GET' && r.path.split('?')[0] === path)
    .map((r) => ({ range: typeof r.headers.range === 'string' ? r.headers.range : undefined }));
}

/** Total bytes named by `Range: bytes=a-b,c-d` headers (clamped to the file's length). */
export function rangeBytes(ranges: (string | undefined)[], length: number): number {
  let total = 0;
  for (const header of ranges) {
    if (!header) continue;
    for (const spec of header.replace(/^bytes=/, '').split(',')) {
      const [a, b] = spec.trim().split('-');
      const start = Number(a);
      const end = Math.min(b ? Number(b) : length - 1, length - 1);
      total += end - start + 1;
    }
  }
  return total;
}
