// Bundles the CLI into ESM files (an entry and its chunks) so the installed tool carries no
// dependency tree.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { commonOptions } from './bundle-options.mjs';

// `--test-hooks --outfile=F` makes the test harness's build (see src/trust/provenance/test-hooks.ts);
// the published bundle is always built without them.
const testHooks = process.argv.includes('--test-hooks');
const outfile = process.argv.find((a) => a.startsWith('--outfile='))?.slice('--outfile='.length);
if (testHooks !== (outfile !== undefined)) {
  console.error('build: --test-hooks needs --outfile=FILE outside dist/, and --outfile only goes with it');
  process.exit(2);
}

// Bundled CJS dependencies call require(); give them one in ESM.
const requireShim =
  "import { createRequire as __akCreateRequire } from 'node:module';\nconst require = __akCreateRequire(import.meta.url);";

if (testHooks) {
  // One file, no launcher: the harness spawns it directly.
  await build({
    ...commonOptions,
    define: { ...commonOptions.define, __KEEPER_TEST_HOOKS__: 'true' },
    outfile,
    format: 'esm',
    banner: { js: `#!/usr/bin/env node\n${requireShim}` },
  });
  chmodSync(outfile, 0o755);
  process.exit(0);
}

// The published bundle: a small CommonJS entry (src/entry/launcher.ts, built alone so it loads no
// chunk) that answers --version and completion itself and imports the rest of the CLI, ES modules
// (dist/chunks/cli.mjs), only for other commands; the CLI is split so each command loads its own
// modules when it runs (docs/decisions.md, "Start-up").
// dist/ holds only this build's output: chunk names change with their content.
rmSync('dist', { recursive: true, force: true });
const CLI_CHUNK = './chunks/cli.mjs';
await build({
  ...commonOptions,
  entryPoints: { 'appimage-keeper': 'src/entry/launcher.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  sourcemap: 'linked',
  banner: { js: '#!/usr/bin/env node' },
  plugins: [
    {
      name: 'cli-chunk',
      setup(b) {
        b.onResolve({ filter: /^\.\/bin\.js$/ }, () => ({ path: CLI_CHUNK, external: true }));
      },
    },
  ],
});
chmodSync('dist/appimage-keeper.cjs', 0o755);
await build({
  ...commonOptions,
  entryPoints: { 'chunks/cli': 'src/entry/bin.ts' },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  format: 'esm',
  sourcemap: 'linked',
  banner: { js: requireShim },
});

// Only the chunk holding esbuild's __require helper (and any that name `require`) needs the shim;
// in every other chunk its createRequire(import.meta.url) is start-up work for nothing (`list`
// loads about 30 chunks). Its lines are left empty, so the source maps still line up.
for (const name of readdirSync('dist/chunks').filter((n) => n.endsWith('.mjs'))) {
  const file = `dist/chunks/${name}`;
  const text = readFileSync(file, 'utf8');
  if (!text.startsWith(requireShim)) continue;
  const code = text.slice(requireShim.length);
  if (!/\brequire\b/.test(code)) writeFileSync(file, '\n'.repeat(requireShim.split('\n').length - 1) + code);
}

// The man page is generated from the same command definitions as --help and docs/cli.md, so it is
// build output (dist/, installed through package.json's `man` field), never committed.
// Same for the completion scripts the launcher prints (packagers can install them as they are).
const docs = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    'scripts/cli-docs.ts',
    '--man',
    'dist/appimage-keeper.1',
    '--completions',
    'dist/completions',
  ],
  { stdio: 'inherit', timeout: 120_000 },
);
if (docs.status !== 0) throw new Error('scripts/cli-docs.ts --man --completions failed');
