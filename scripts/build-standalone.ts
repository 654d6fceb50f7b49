/**
 * Builds the standalone executable `appimage-keeper-<version>-linux-<arch>`: a CommonJS bundle of
 * the CLI inside a copy of the Node binary that runs this script (Node's single executable
 * application support), so it runs on machines without Node.js.
 *
 *   tsx scripts/build-standalone.ts [--out-dir DIR]     (default: release/)
 *
 * Node 20's single executable applications only run a CommonJS main script, hence the second
 * bundle format. The copy is stripped of its symbol tables when binutils' `strip` is on PATH.
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

/** Builds the executable into `outDir`; returns its path, size and whether it was stripped. */
export async function buildStandalone(
  outDir: string,
): Promise<{ file: string; size: number; stripped: boolean }> {
  await mkdir(outDir, { recursive: true });
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
    runStep(process.execPath, ['--experimental-sea-config', config]);
    await copyFile(process.execPath, partial);
    await chmod(partial, 0o755);
    const stripped = runStep('strip', [partial], true);
    const blobData = await readFile(blob);
    await quietly(() => inject(partial, 'NODE_SEA_BLOB', blobData, { sentinelFuse: SEA_FUSE }));
    await rename(partial, file);
    return { file, size: (await stat(file)).size, stripped };
  } finally {
    await rm(partial, { force: true });
    await rm(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--out-dir');
  const outDir = resolve(at > 0 ? (process.argv[at + 1] ?? 'release') : 'release');
  const started = Date.now();
  const { file, size, stripped } = await buildStandalone(outDir);
  const mib = (size / 1024 / 1024).toFixed(1);
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`${file} (${mib} MiB${stripped ? ', stripped' : ''}, built in ${secs}s)\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
