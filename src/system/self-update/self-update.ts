/**
 * `self-update`: find the newest release of the tool's own repository and, for the standalone
 * executable, replace it once an attestation by our release workflow vouches for it (or
 * `--insecure` waives that); for npm or a clone, say which command updates it (those files belong
 * to npm or git, not to us). `--rollback` puts the kept previous executable back. Returns data
 * only; the CLI prints it.
 */
import semver from 'semver';
import type { AppSettings } from '../../config/types.js';
import type { Workspace } from '../../config/workspace.js';
import type { Context } from '../../context/context.js';
import { KeeperError } from '../../core/errors.js';
import { shellQuote } from '../../core/shell-quote.js';
import { VERSION } from '../../core/version.js';
import type { Resolution } from '../../sources/types.js';
import type { BuildIdentity } from '../../trust/provenance/identity.js';
import { embeddedRoot, type LoadedRoot, type RootName } from '../../trust/provenance/trusted-root.js';
import { COMPRESSED_SUFFIX, standaloneAssetGlob } from './asset-name.js';
import { requireSelfAttestation } from './attest-self.js';
import type { InstallKind } from './install-kind.js';
import { rollbackExecutable } from './previous.js';
import { replaceExecutable } from './replace-executable.js';
import { createSelfResolver, selfSettings, type SelfResolver } from './resolve-self.js';

/** Options of one self-update. */
export interface SelfUpdateOptions {
  install: InstallKind;
  repository: string;
  /** Replace even when the release is not newer (same version reinstalled). */
  force: boolean;
  /** `--insecure`: install without an attestation by our release workflow (a warning says so). */
  insecure?: boolean;
  /** `--rollback`: restore `<exe>.previous` instead of looking for a release. */
  rollback?: boolean;
  /**
   * The trusted roots attestations verify against. Default: the embedded ones (which only a
   * test-hooks build lets APPIMAGE_KEEPER_TEST_TRUSTED_ROOT replace); in-process tests pass a
   * test CA's. The CLI never sets it.
   */
  rootFor?: (name: RootName) => LoadedRoot;
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
      /** The replaced executable, kept for `--rollback`. */
      previous: string;
      /** Who built it, from the verified attestation; null under `--insecure`. */
      provenance: SelfProvenance | null;
    }
  | { status: 'rolled_back'; install: 'standalone'; path: string; previous: string }
  | {
      status: 'manual';
      install: 'npm' | 'source';
      current: string;
      latest: string;
      /** The command that updates this install. */
      command: string;
    };

/** The attested build of a new executable (`self-update --json`'s `provenance`). */
export interface SelfProvenance {
  signer_workflow: string;
  source_repository: string;
  source_commit?: string | undefined;
  source_ref?: string | undefined;
}

/** Resolves the newest release and updates or advises according to the install kind. */
export async function selfUpdate(
  ctx: Context,
  ws: Workspace,
  opts: SelfUpdateOptions,
): Promise<SelfUpdateResult> {
  if (opts.rollback) return rollback(opts.install);
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

  // The compressed executable when the release has one (a quarter of the download), else the raw one.
  const packed = selfSettings(
    ws,
    ctx,
    opts.repository,
    `${standaloneAssetGlob(ctx.arch)}${COMPRESSED_SUFFIX}`,
  );
  const compressed = install.kind === 'standalone' ? await resolveOptional(resolver, packed) : undefined;
  const resolution = compressed ?? (await resolver.resolve(exeSettings));
  const latest = versionOf(resolution.version);
  if (!isNewer(latest, current) && !opts.force) return upToDate(install.kind, current, latest);
  if (install.kind === 'source') {
    const command = `cd ${shellQuote(install.dir)} && git pull && npm ci && npm run build`;
    return { status: 'manual', install: 'source', current, latest, command };
  }
  const rootFor = opts.rootFor ?? ((name: RootName) => embeddedRoot(name, ctx.env));
  const replaced = await replaceExecutable(install.executable, resolution, exeSettings, ctx, opts.signal, {
    version: latest,
    authenticate: async (sha256) => {
      if (!opts.insecure) {
        const release = { assetName: resolution.assetName, tag: resolution.version };
        return provenanceJson(
          await requireSelfAttestation(exeSettings, sha256, release, resolver.deps, rootFor),
        );
      }
      ctx.emit({
        type: 'warning',
        app: exeSettings.name,
        code: 'SELF_UPDATE_INSECURE',
        message: `--insecure: installing ${resolution.assetName} without checking that appimage-keeper's release workflow built it; only its SHA-256 and a --version run are checked`,
      });
      return null;
    },
  });
  return {
    status: 'updated',
    install: 'standalone',
    current,
    latest,
    path: replaced.path,
    bytes_downloaded: replaced.bytes,
    previous: replaced.previous,
    provenance: replaced.authenticity,
  };
}

async function rollback(install: InstallKind): Promise<SelfUpdateResult> {
  if (install.kind !== 'standalone') {
    throw new KeeperError(
      'SELF_UPDATE_NO_PREVIOUS',
      `only the standalone executable keeps a previous version; this one was installed with ${install.kind === 'npm' ? 'npm' : 'a clone'}`,
      {
        hint:
          install.kind === 'npm'
            ? 'install the version you want with npm install -g appimage-keeper@<version>'
            : 'check out the version you want and run npm run build',
      },
    );
  }
  const { path, previous } = await rollbackExecutable(install.executable);
  return { status: 'rolled_back', install: 'standalone', path, previous };
}

function provenanceJson(id: BuildIdentity): SelfProvenance {
  return {
    signer_workflow: id.workflow,
    source_repository: id.sourceRepository,
    source_commit: id.sourceCommit,
    source_ref: id.sourceRef,
  };
}

// A release may carry the npm tarball (`npm pack` output); installing it needs no registry.
function resolveTarball(
  resolver: SelfResolver,
  ws: Workspace,
  ctx: Context,
  repository: string,
): Promise<Resolution | undefined> {
  return resolveOptional(resolver, selfSettings(ws, ctx, repository, 'appimage-keeper-*.tgz'));
}

// The release's asset for `settings`, or undefined when it has none (the memo makes it one request).
async function resolveOptional(
  resolver: SelfResolver,
  settings: AppSettings,
): Promise<Resolution | undefined> {
  try {
    return await resolver.resolve(settings);
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
