/**
 * `self-update`: find the newest release of the tool's own repository and, for the standalone
 * executable, replace it; for npm or a clone, say which command updates it (those files belong
 * to npm or git, not to us). Returns data only; the CLI prints it.
 */
import semver from 'semver';
import type { Workspace } from '../../config/workspace.js';
import type { Context } from '../../core/context.js';
import { KeeperError } from '../../core/errors.js';
import { shellQuote } from '../../core/shell-quote.js';
import { VERSION } from '../../core/version.js';
import type { Resolution } from '../../sources/types.js';
import { standaloneAssetGlob } from './asset-name.js';
import type { InstallKind } from './install-kind.js';
import { replaceExecutable } from './replace-executable.js';
import { createSelfResolver, selfSettings, type SelfResolver } from './resolve-self.js';

/** Options of one self-update. */
export interface SelfUpdateOptions {
  install: InstallKind;
  repository: string;
  /** Replace even when the release is not newer (same version reinstalled). */
  force: boolean;
  /** The running version (VERSION; tests pass another). */
  currentVersion?: string;
  signal: AbortSignal;
}

/** What a self-update did. */
export type SelfUpdateResult =
  | { status: 'up_to_date'; install: InstallKind['kind']; current: string; latest: string }
  | {
      status: 'updated';
      install: 'standalone';
      current: string;
      latest: string;
      path: string;
      bytes_downloaded: number;
    }
  | {
      status: 'manual';
      install: 'npm' | 'source';
      current: string;
      latest: string;
      /** The command that updates this install. */
      command: string;
    };

/** Resolves the newest release and updates or advises according to the install kind. */
export async function selfUpdate(
  ctx: Context,
  ws: Workspace,
  opts: SelfUpdateOptions,
): Promise<SelfUpdateResult> {
  const current = opts.currentVersion ?? VERSION;
  const resolver = createSelfResolver(ctx, opts.signal);
  const exeSettings = selfSettings(ws, ctx, opts.repository, standaloneAssetGlob(ctx.arch));
  const { install } = opts;

  if (install.kind === 'npm') {
    const tarball = await resolveTarball(resolver, ws, ctx, opts.repository);
    const release = tarball ?? (await resolver.resolve(exeSettings));
    const latest = versionOf(release.version);
    if (!isNewer(latest, current) && !opts.force) return upToDate('npm', current, latest);
    const spec = tarball ? tarball.url : `appimage-keeper@${latest}`;
    return { status: 'manual', install: 'npm', current, latest, command: `npm install -g ${spec}` };
  }

  const resolution = await resolver.resolve(exeSettings);
  const latest = versionOf(resolution.version);
  if (!isNewer(latest, current) && !opts.force) return upToDate(install.kind, current, latest);
  if (install.kind === 'source') {
    const command = `cd ${shellQuote(install.dir)} && git pull && npm ci && npm run build`;
    return { status: 'manual', install: 'source', current, latest, command };
  }
  const replaced = await replaceExecutable(install.executable, resolution, exeSettings, ctx, opts.signal);
  return {
    status: 'updated',
    install: 'standalone',
    current,
    latest,
    path: replaced.path,
    bytes_downloaded: replaced.bytes,
  };
}

// A release may carry the npm tarball (`npm pack` output); installing it needs no registry.
async function resolveTarball(
  resolver: SelfResolver,
  ws: Workspace,
  ctx: Context,
  repository: string,
): Promise<Resolution | undefined> {
  try {
    return await resolver.resolve(selfSettings(ws, ctx, repository, 'appimage-keeper-*.tgz'));
  } catch (err) {
    if (err instanceof KeeperError && err.code === 'ASSET_NO_MATCH') return undefined;
    throw err;
  }
}

function upToDate(install: InstallKind['kind'], current: string, latest: string): SelfUpdateResult {
  return { status: 'up_to_date', install, current, latest };
}

/** `v1.2.3` → `1.2.3`; a tag that is no version is kept as it is. */
function versionOf(tag: string): string {
  return semver.valid(semver.clean(tag) ?? '') ?? tag;
}

function isNewer(latest: string, current: string): boolean {
  const l = semver.valid(latest);
  const c = semver.valid(current);
  if (l && c) return semver.gt(l, c);
  return latest !== current;
}
