/**
 * Builds the standalone executable `appimage-keeper-<version>-linux-<arch>`: a CommonJS bundle of
 * the CLI inside a copy of the pinned Node.js runtime (scripts/node-runtime.ts; Node's single
 * executable application support), so it runs on machines without Node.js.
 *
 *   tsx scripts/build-standalone.ts [--out-dir DIR] [--compress]     (default: release/)
 *
 * Single executable applications run a CommonJS main script, hence the second bundle format. The
 * blob is made by the runtime that will run it (its code cache is V8-version specific). The copy
 * is stripped of its symbol tables when binutils' `strip` is on PATH. `--compress` also writes
 * `<file>.zst`, the release asset self-update prefers.
 */
import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { standaloneFileName } from '../src/system/self-update/asset-name.js';
import { commonOptions, pkg } from './bundle-options.mjs';
import { compressAsset } from './compress-asset.js';
import { defaultRuntimeCache, nodePinFor, nodeRuntime, type RuntimeOptions } from './node-runtime.js';

type Inject = (file: string, name: string, data: Buffer, opts: { sentinelFuse: string }) => Promise<void>;
const { inject } = createRequire(import.meta.url)('postject') as { inject: Inject };

// The fuse string Node looks for to know that a blob was injected (Node's SEA documentation).
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const STEP_TIMEOUT_MS = 120_000;

function runStep(cmd: string, args: string[], optional = false): boolean {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: STEP_TIMEOUT_MS });
  if (r.error && optional && (r.error as NodeJS.ErrnoException).code === 'ENOENT') return false;
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}: ${r.stderr.toString().trim()}`;
    throw new Error(`${cmd} ${args.join(' ')} failed (${why})`);
  }
  return true;
}

// postject's ELF library warns once per unnamed note section of Node's binary ("Can't find string
// offset for section name '.note.100'"), which is harmless; other messages still get through.
const HARMLESS = /^warning: Can't find string offset for section name/;

async function quietly(fn: () => Promise<void>): Promise<void> {
  const { warn, log } = console;
  console.warn = (...args: unknown[]) => {
    if (!HARMLESS.test(String(args[0]))) warn(...args);
  };
  // "Start injection" / "Injection done": the build prints its own one line.
  console.log = () => {};
  try {
    await fn();
  } finally {
    console.warn = warn;
    console.log = log;
  }
}

/** What `buildStandalone` wrote. */
export interface BuiltStandalone {
  file: string;
  size: number;
  stripped: boolean;
  /** The embedded Node.js version. */
  runtime: string;
  /** `<file>.zst` and its size, with `compress`. */
  compressed?: { file: string; size: number };
}

/**
 * Builds the executable into `outDir` on the pinned runtime of this machine's architecture
 * (`runtime` replaces it: tests use a loopback registry).
 */
export async function buildStandalone(
  outDir: string,
  opts: { compress?: boolean; runtime?: RuntimeOptions } = {},
): Promise<BuiltStandalone> {
  await mkdir(outDir, { recursive: true });
  const runtime = opts.runtime ?? { pin: nodePinFor(process.arch), cacheDir: defaultRuntimeCache() };
  const work = await mkdtemp(join(tmpdir(), 'ak-sea-'));
  const file = join(outDir, standaloneFileName(pkg.version, process.arch));
  const partial = `${file}.partial`;
  try {
    const main = join(work, 'appimage-keeper.cjs');
    const bundled = await build({
      ...commonOptions,
      entryPoints: ['src/entry/standalone.ts'],
      outfile: main,
      format: 'cjs',
    });
    // esbuild only warns about what CommonJS cannot do (an empty `import.meta`, for one); here
    // that would be a binary that breaks at run time, so it stops the build.
    if (bundled.warnings.length > 0) {
      throw new Error(`the CommonJS bundle has warnings: ${bundled.warnings.map((w) => w.text).join('; ')}`);
    }
    const blob = join(work, 'sea.blob');
    const config = join(work, 'sea-config.json');
    await writeFile(
      config,
      JSON.stringify({ main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }),
    );
    const node = await nodeRuntime(runtime, work);
    runStep(node, ['--experimental-sea-config', config]);
    await copyFile(node, partial);
    await chmod(partial, 0o755);
    const stripped = runStep('strip', [partial], true);
    const blobData = await readFile(blob);
    await quietly(() => inject(partial, 'NODE_SEA_BLOB', blobData, { sentinelFuse: SEA_FUSE }));
    await rename(partial, file);
    const built: BuiltStandalone = {
      file,
      size: (await stat(file)).size,
      stripped,
      runtime: runtime.pin.version,
    };
    if (opts.compress) built.compressed = await compressAsset(file);
    return built;
  } finally {
    await rm(partial, { force: true });
    await rm(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--out-dir');
  const outDir = resolve(at > 0 ? (process.argv[at + 1] ?? 'release') : 'release');
  const started = Date.now();
  const built = await buildStandalone(outDir, { compress: process.argv.includes('--compress') });
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const how = `Node.js ${built.runtime}, ${mib(built.size)}${built.stripped ? ', stripped' : ''}`;
  process.stdout.write(`${built.file} (${how}, built in ${secs}s)\n`);
  if (built.compressed) process.stdout.write(`${built.compressed.file} (${mib(built.compressed.size)})\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
