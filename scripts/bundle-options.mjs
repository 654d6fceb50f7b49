// esbuild options shared by the npm bundle (ESM, scripts/build.mjs) and the standalone executable
// (CommonJS, scripts/build-standalone.ts): one entry, one set of build-time constants.
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';

/** package.json of this repository. */
export const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The repository URL of package.json (`repository` as a string or `{ url }`), without `git+`/`.git`. */
export function repositoryUrl(p = pkg) {
  const raw = typeof p.repository === 'string' ? p.repository : (p.repository?.url ?? '');
  return raw.replace(/^git\+/, '').replace(/\.git$/, '');
}

/**
 * Options common to every bundle of the CLI: the npm one (entry src/entry/launcher.ts, with bin.ts
 * in chunks), the standalone one (src/entry/standalone.ts) and the test harness's (bin.ts).
 */
export const commonOptions = {
  entryPoints: ['src/entry/bin.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  define: {
    __APPIMAGE_KEEPER_VERSION__: JSON.stringify(pkg.version),
    __APPIMAGE_KEEPER_REPOSITORY__: JSON.stringify(repositoryUrl()),
    // false removes the provenance test seam (src/trust/provenance/test-hooks.ts) from every
    // published build; only `build.mjs --test-hooks` (the test harness) sets it true.
    __KEEPER_TEST_HOOKS__: 'false',
  },
  logLevel: 'warning',
  plugins: [optionalPackagesAbsent(), commanderSpawnOnUse(), zodEnglishOnly()],
};

/**
 * Libraries probe optional packages we do not install: `debug` (under the proxy agents) requires
 * `supports-color` in a try, proxy-agent-negotiate imports `kerberos` on a Negotiate challenge.
 * esbuild leaves such a call for run time, where the standalone executable's require() knows only
 * built-ins and Node prints a warning on every run through a proxy. A `require()` or `import()` of
 * a package that does not resolve gets a module that throws MODULE_NOT_FOUND instead, which is
 * what the library's probe expects from a missing package. A static import still fails the build.
 */
function optionalPackagesAbsent() {
  const probe = { optionalProbe: true };
  return {
    name: 'optional-packages-absent',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.kind !== 'require-call' && args.kind !== 'dynamic-import') return undefined;
        if (isBuiltin(args.path) || args.pluginData === probe) return undefined;
        const found = await b.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: probe,
        });
        return found.errors.length > 0 ? { path: args.path, namespace: 'absent-package' } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'absent-package' }, (args) => ({
        contents: `throw Object.assign(new Error(${JSON.stringify(`Cannot find module '${args.path}'`)}), { code: 'MODULE_NOT_FOUND' });`,
        loader: 'js',
      }));
    },
  };
}

/**
 * zod exports every one of its ~40 message locales as `z.locales` (366 KB of the 766 KB it bundles
 * to), and a namespace export cannot be tree-shaken. We use English only, which zod's schemas import
 * on their own (`classic/schemas.js`); the namespace keeps `en` alone. Halves what every command
 * that validates a file with zod compiles.
 */
function zodEnglishOnly() {
  return {
    name: 'zod-english-only',
    setup(b) {
      b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
        /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
          ? { path: join(dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-locales' }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
        contents: `export { default as en } from ${JSON.stringify(args.path)};`,
        loader: 'js',
        resolveDir: dirname(args.path),
      }));
    },
  };
}

/**
 * commander requires `node:child_process` at load for executable subcommands, which we never use;
 * loading it (and `dgram`, `internal/child_process` with it) is start-up work for every command.
 * Inside commander only, it becomes a module that requires it on the first spawn.
 */
function commanderSpawnOnUse() {
  return {
    name: 'commander-spawn-on-use',
    setup(b) {
      b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
        /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
          ? { path: 'child-process-on-use', namespace: 'commander-spawn' }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'commander-spawn' }, () => ({
        contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
        loader: 'js',
      }));
    },
  };
}
