// Bundles the CLI into one ESM file so the installed tool carries no dependency tree.
import { build } from 'esbuild';
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
