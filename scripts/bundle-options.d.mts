import type { BuildOptions, Plugin } from 'esbuild';

/** package.json of this repository. */
export const pkg: { name: string; version: string; repository?: string | { url?: string } };
/** The repository URL of package.json, without `git+`/`.git`. */
export function repositoryUrl(p?: typeof pkg): string;
/** Options common to both bundles of src/entry/bin.ts. */
export const commonOptions: BuildOptions;
/** Leaves libraries out of a bundle, each to be built as `dist/vendor/<name>.cjs` (the quick bundle). */
export function vendorOutside(vendored: Map<string, string>): Plugin;
