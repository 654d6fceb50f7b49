/**
 * In-process self-update against the loopback sim: a release of the tool's own repository whose
 * asset is a small real executable, attested (or not) by a test CA whose trusted root replaces the
 * embedded ones through `rootFor`, and a stand-in for the installed executable in a temp dir.
 */
import { createHttpSettings } from '../../src/http/settings.js';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { buildRuntime } from '../../fixtures/runtime.js';
import { resolvePaths } from '../../src/config/paths.js';
import { loadWorkspace, type Workspace } from '../../src/config/workspace.js';
import type { Context } from '../../src/context/context.js';
import type { KeeperEvent } from '../../src/core/events.js';
import { COMPRESSED_SUFFIX, standaloneFileName } from '../../src/system/self-update/asset-name.js';
import type { InstallKind } from '../../src/system/self-update/install-kind.js';
import {
  selfUpdate,
  type SelfUpdateOptions,
  type SelfUpdateResult,
} from '../../src/system/self-update/self-update.js';
import { loadRoot } from '../../src/trust/provenance/trusted-root.js';
import type { TrustedRootJson } from '../../src/trust/provenance/trusted-root.js';
import { startSim, type Sim, type SimReleaseAsset } from '../../sim/index.js';
import { createTestCa, type LeafIdentity, type TestCa } from './attest-ca.js';
import { sha256 } from './sha256.js';
import { makeTmpHome, type TmpHome } from './tmp-home.js';

/** The bytes of the stand-in installed executable. */
export const OLD = Buffer.from('#!/bin/sh\necho old\n');
/** Where the sim serves the tool's releases (any owner: the signer identity is pinned apart from it). */
export const SIM_OWNER = 'ak';
export const BUILD = 'https://slsa.dev/provenance/v1';

/** The identity our release workflow's certificate carries (package.json's repository). */
export function ourWorkflow(tag: string, over: Partial<LeafIdentity> = {}): LeafIdentity {
  return {
    san: `https://github.com/appimage-keeper/appimage-keeper/.github/workflows/release.yml@refs/tags/${tag}`,
    sourceRepository: 'https://github.com/appimage-keeper/appimage-keeper',
    sourceCommit: 'c0ffee'.padEnd(40, '0'),
    sourceRef: `refs/tags/${tag}`,
    ...over,
  };
}

/** A tiny x86_64/aarch64 ELF that prints `text` and exits 0 (the tool's `--version` answer). */
export function printing(text: string, arch: 'x86_64' | 'aarch64' = 'x86_64'): Buffer {
  return buildRuntime({ message: text, arch });
}

/**
 * Like `printing`, but the program waits for a signal (x86_64 `pause`) instead of exiting: the
 * runtime's `mov eax, 60` (exit) becomes `mov eax, 34` (pause).
 */
export function hanging(text: string): Buffer {
  const body = printing(text);
  const exit = Buffer.from([0xb8, 0x3c, 0x00, 0x00, 0x00, 0x31, 0xff, 0x0f, 0x05]);
  const at = body.indexOf(exit);
  if (at < 0) throw new Error('fixture runtime changed: no exit syscall to patch');
  body[at + 1] = 0x22;
  return body;
}

/** One release to publish. */
export interface PublishOptions {
  /** Sign a build-provenance bundle for the asset with this identity (none: unattested). */
  attestedBy?: LeafIdentity | undefined;
  /** The CA that signs it (default: the world's). */
  ca?: TestCa;
  /** Size the release states (default: none, as a hub without sizes). */
  size?: number;
  /** Hex digest the release states (default: the body's; false: none). Attestations name it. */
  digest?: string | false;
  extra?: SimReleaseAsset[];
  /** Publish these bytes as `<name>.zst` beside the raw file, with their digest and size (attested too). */
  compressed?: Buffer;
}

/** The world of one test file. */
export interface SelfUpdateWorld {
  readonly sim: Sim;
  readonly h: TmpHome;
  readonly ca: TestCa;
  readonly events: KeeperEvent[];
  repo(): string;
  publish(version: string, body: Buffer, opts?: PublishOptions): string;
  installed(mode?: number): Promise<{ dir: string; file: string }>;
  update(
    install: InstallKind,
    opts?: Partial<Pick<SelfUpdateOptions, 'force' | 'insecure' | 'rollback' | 'currentVersion'>>,
  ): Promise<SelfUpdateResult>;
}

/** Registers before/after hooks and returns the world they set up. */
export function useSelfUpdateWorld(): SelfUpdateWorld {
  let sim: Sim;
  let h: TmpHome;
  let ws: Workspace;
  let ctx: Context;
  let ca: TestCa;
  let n = 0;
  const events: KeeperEvent[] = [];

  before(async () => {
    sim = await startSim();
    h = await makeTmpHome();
    ca = createTestCa();
    h.env.APPIMAGE_KEEPER_PROXY_BUILTINS = '';
    await h.writeConfig(
      [
        `hub_release_api_url: ${sim.hubApiUrl}`,
        `hub_release_web_url: ${sim.url}`,
        'hub_proxy: false',
        '',
      ].join('\n'),
    );
    ctx = {
      env: h.env,
      paths: resolvePaths(h.env),
      now: () => new Date(),
      arch: process.arch,
      emit: (e) => events.push(e),
      http: createHttpSettings(),
    };
    ws = await loadWorkspace(ctx.paths, ctx.env);
  });
  after(async () => {
    await sim.stop();
    await h.cleanup();
    ca.dispose();
  });

  return {
    get sim() {
      return sim;
    },
    get h() {
      return h;
    },
    get ca() {
      return ca;
    },
    events,
    repo: () => `${sim.url}/${SIM_OWNER}/appimage-keeper`,
    publish(version, body, opts = {}) {
      const name = standaloneFileName(version, process.arch);
      const url = sim.putAsset(`/self/${version}/${++n}/${name}`, body);
      const stated = opts.digest === undefined ? sha256(body) : opts.digest;
      // Without a stated digest the attestation is of the real one (a .sha256 asset states it).
      const hex = stated || sha256(body);
      const packed = opts.compressed;
      const packedName = `${name}${COMPRESSED_SUFFIX}`;
      const packedAsset = packed && {
        name: packedName,
        url: sim.putAsset(`/self/${version}/${n}/${packedName}`, packed),
        digest: `sha256:${sha256(packed)}`,
        size: packed.length,
      };
      sim.hub.setReleases(SIM_OWNER, 'appimage-keeper', [
        {
          tag: `v${version}`,
          assets: [
            {
              name,
              url,
              ...(stated ? { digest: `sha256:${stated}` } : {}),
              ...(opts.size ? { size: opts.size } : {}),
            },
            ...(packedAsset ? [packedAsset] : []),
            ...(opts.extra ?? []),
          ],
        },
      ]);
      const attest = (subject: string, digest: string) => {
        const bundles = opts.attestedBy
          ? [
              (opts.ca ?? ca).bundle(opts.attestedBy, {
                predicateType: BUILD,
                subject: [{ name: subject, digest: { sha256: digest } }],
              }),
            ]
          : [];
        sim.hub.setAttestations(SIM_OWNER, 'appimage-keeper', digest, bundles);
      };
      attest(name, hex);
      if (packed) attest(packedName, sha256(packed));
      return url;
    },
    async installed(mode = 0o750) {
      const dir = join(h.root, `exe-${++n}`);
      await mkdir(dir);
      const file = join(dir, 'appimage-keeper');
      await writeFile(file, OLD);
      await chmod(file, mode);
      return { dir, file };
    },
    update(install, opts = {}) {
      return selfUpdate(ctx, ws, {
        install,
        repository: `${sim.url}/${SIM_OWNER}/appimage-keeper`,
        force: opts.force ?? false,
        insecure: opts.insecure ?? false,
        rollback: opts.rollback ?? false,
        currentVersion: opts.currentVersion ?? '0.1.0',
        signal: new AbortController().signal,
        rootFor: (name) => loadRoot(name, ca.trustedRoot as unknown as TrustedRootJson),
      });
    },
  };
}
