// Bundles the CLI into one ESM file so the installed tool carries no dependency tree.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { commonOptions } from './bundle-options.mjs';

await build({
  ...commonOptions,
  outfile: 'dist/appimage-keeper.mjs',
  format: 'esm',
  sourcemap: 'linked',
  banner: {
    // Bundled CJS dependencies call require(); give them one in ESM.
    js: "#!/usr/bin/env node\nimport { createRequire as __akCreateRequire } from 'node:module';\nconst require = __akCreateRequire(import.meta.url);",
  },
});
chmodSync('dist/appimage-keeper.mjs', 0o755);

// The man page is generated from the same command definitions as --help and docs/cli.md, so it is
// build output (dist/, installed through package.json's `man` field), never committed.
const man = spawnSync(
  process.execPath,
  ['--import', 'tsx', 'scripts/cli-docs.ts', '--man', 'dist/appimage-keeper.1'],
  {
    stdio: 'inherit',
    timeout: 120_000,
  },
);
if (man.status !== 0) throw new Error('scripts/cli-docs.ts --man failed');
