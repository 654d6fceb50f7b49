import type { BuildOptions } from 'esbuild';

/** package.json of this repository. */
export const pkg: { name: string; version: string; repository?: string | { url?: string } };
/** The repository URL of package.json, without `git+`/`.git`. */
export function repositoryUrl(p?: typeof pkg): string;
/** Options common to both bundles of src/entry/bin.ts. */
export const commonOptions: BuildOptions;
