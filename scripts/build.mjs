// Bundles the CLI into one ESM file so the installed tool carries no dependency tree.
import { build } from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';

// `--test-hooks --outfile=F` makes the test harness's build (see src/trust/provenance/test-hooks.ts);
// the published bundle is always built without them.
const testHooks = process.argv.includes('--test-hooks');
const outfile = process.argv.find((a) => a.startsWith('--outfile='))?.slice('--outfile='.length);
if (testHooks !== (outfile !== undefined)) {
  console.error('build: --test-hooks needs --outfile=FILE outside dist/, and --outfile only goes with it');
  process.exit(2);
}
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['src/cli/bin.ts'],
  outfile: outfile ?? 'dist/appimage-keeper.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  // false removes the provenance test seam (src/trust/provenance/test-hooks.ts) from the bundle.
  define: {
    __APPIMAGE_KEEPER_VERSION__: JSON.stringify(pkg.version),
    __KEEPER_TEST_HOOKS__: testHooks ? 'true' : 'false',
  },
  banner: {
    // Bundled CJS dependencies call require(); give them one in ESM.
    js: "#!/usr/bin/env node\nimport { createRequire as __akCreateRequire } from 'node:module';\nconst require = __akCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
chmodSync(outfile ?? 'dist/appimage-keeper.mjs', 0o755);
