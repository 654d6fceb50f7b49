/**
 * What a run of the built CLI loads: a loader hook (ES modules) and a preloaded wrapper of
 * CommonJS's compile step (the launcher) in the CLI's own
 * process record every file it loads, and esbuild's `// path` markers in those files name the
 * sources and libraries bundled into them. For the start-up tests (commands load only what they use).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI_PATH } from './run-cli.js';

/** A run of the CLI with the files it loaded. */
export interface RecordedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  files: string[];
}

let runs = 0;

/**
 * Runs the CLI with `args` and `env`, recording the files it loads in a log under `dir`. Spawned
 * asynchronously, so a simulator running in the test's process can answer it.
 */
export async function runRecordingLoads(
  args: string[],
  env: NodeJS.ProcessEnv,
  dir: string,
): Promise<RecordedRun> {
  const log = join(dir, `loaded-${process.pid}-${++runs}.txt`);
  const hook = `
    import { appendFileSync } from 'node:fs';
    export async function load(url, context, next) {
      if (url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, url + '\\n');
      return next(url, context);
    }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  const preload = join(dir, `loaded-${process.pid}-${runs}.cjs`);
  await writeFile(
    preload,
    `const Module = require('node:module');
    const { appendFileSync } = require('node:fs');
    const compile = Module.prototype._compile;
    Module.prototype._compile = function (content, filename) {
      appendFileSync(${JSON.stringify(log)}, require('node:url').pathToFileURL(filename).href + '\\n');
      return compile.call(this, content, filename);
    };`,
  );
  const child = spawn(
    process.execPath,
    [
      '--require',
      preload,
      '--import',
      `data:text/javascript,${encodeURIComponent(register)}`,
      CLI_PATH,
      ...args,
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  const [code] = (await once(child, 'close')) as [number | null];
  const text = await readFile(log, 'utf8').catch(() => '');
  // Once each: the launcher, a CommonJS main file, is seen by both recorders.
  const files = [
    ...new Set(
      text
        .split('\n')
        .filter(Boolean)
        .map((u) => new URL(u).pathname),
    ),
  ];
  return { code, stdout, stderr, files };
}

/** The project sources bundled into `files` (`src/...`). */
export async function bundledSources(files: string[]): Promise<Set<string>> {
  const sources = new Set<string>();
  for (const file of files)
    for (const m of (await readFile(file, 'utf8')).matchAll(/^\/\/ (src\/\S+\.ts)$/gm))
      sources.add(m[1] as string);
  return sources;
}

/** Whether any of `files` bundles the npm package `library`. */
export async function bundlesLibrary(files: string[], library: string): Promise<boolean> {
  // `// node_modules/zod/...`, or where node_modules is a link, `// ../../main/node_modules/zod/...`.
  const marker = new RegExp(`^// (?:\\S*/)?node_modules/${library}/`, 'm');
  for (const file of files) if (marker.test(await readFile(file, 'utf8'))) return true;
  return false;
}
