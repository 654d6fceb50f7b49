import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { resolvePaths } from '../config/paths.js';

/** The folder of Node's compile cache, in our own cache folder (never the shared temp folder). */
export function compileCacheDir(env: NodeJS.ProcessEnv): string {
  return join(resolvePaths(env, undefined, 'user').cacheDir, 'node-compile-cache');
}

/**
 * Turns on Node's on-disk cache of compiled code (module.enableCompileCache, Node 22.1+) before
 * the CLI's modules load: on later runs V8 reads their code instead of compiling it. Node 20 has no
 * such cache and the call is skipped; a cache Node cannot use is its own to report and ignore.
 */
export function enableCompileCache(env: NodeJS.ProcessEnv): void {
  const enable = (nodeModule as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  if (typeof enable !== 'function' || env.NODE_DISABLE_COMPILE_CACHE) return;
  try {
    enable(compileCacheDir(env));
  } catch {
    // Only start-up time depends on it.
  }
}
