// Bundles the CLI into one ESM file so the installed tool carries no dependency tree.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { commonOptions } from './bundle-options.mjs';

// `--test-hooks --outfile=F` makes the test harness's build (see src/trust/provenance/test-hooks.ts);
// the published bundle is always built without them.
const testHooks = process.argv.includes('--test-hooks');
const outfile = process.argv.find((a) => a.startsWith('--outfile='))?.slice('--outfile='.length);
if (testHooks !== (outfile !== undefined)) {
  console.error('build: --test-hooks needs --outfile=FILE outside dist/, and --outfile only goes with it');
  process.exit(2);
}

await build({
  ...commonOptions,
  ...(testHooks ? { define: { ...commonOptions.define, __KEEPER_TEST_HOOKS__: 'true' } } : {}),
  outfile: outfile ?? 'dist/appimage-keeper.mjs',
  format: 'esm',
  sourcemap: 'linked',
  banner: {
    // Bundled CJS dependencies call require(); give them one in ESM.
    js: "#!/usr/bin/env node\nimport { createRequire as __akCreateRequire } from 'node:module';\nconst require = __akCreateRequire(import.meta.url);",
  },
});
chmodSync(outfile ?? 'dist/appimage-keeper.mjs', 0o755);

// The man page is generated from the same command definitions as --help and docs/cli.md, so it is
// build output (dist/, installed through package.json's `man` field), never committed. The test
// harness's build (--test-hooks) needs none.
if (!testHooks) {
  const man = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/cli-docs.ts', '--man', 'dist/appimage-keeper.1'],
    { stdio: 'inherit', timeout: 120_000 },
  );
  if (man.status !== 0) throw new Error('scripts/cli-docs.ts --man failed');
}
