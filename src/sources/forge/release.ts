/**
 * The forge-neutral release every forge module produces, and how it becomes a Resolution:
 * the recipe's asset, its companions (zsync control file, checksum file) and an identity that
 * changes whenever the asset does, even under a moving tag.
 */
import type { ForgeStrategy } from '../../config/types.js';
import type { Resolution } from '../types.js';
import { chooseAsset } from './asset-match.js';

/** One downloadable asset of a release. */
export interface ForgeAsset {
  name: string;
  url: string;
  size?: number | undefined;
  /** Lower-case hex SHA-256 published by the forge. */
  sha256?: string | undefined;
  id?: string | number | undefined;
  updatedAt?: string | undefined;
}

/** A release as every forge module returns it. */
export interface ForgeRelease {
  tag: string;
  releaseUrl?: string | undefined;
  /** The hub says its assets can no longer change (and it publishes a release attestation). */
  immutable?: boolean | undefined;
  /** ISO time the release was published, when the forge says. */
  publishedAt?: string | undefined;
  /** The proxy base the metadata came through, when the hub was rate-limited. */
  viaProxy?: string | undefined;
  assets: ForgeAsset[];
}

/** Picks the recipe's asset from a release and describes it as a Resolution. */
export function releaseToResolution(
  release: ForgeRelease,
  strategy: ForgeStrategy,
  nodeArch: string,
): Resolution {
  const asset = chooseAsset(release.assets, {
    glob: strategy.asset_match,
    regex: strategy.asset_match_regex,
    nodeArch,
  });
  return {
    version: release.tag,
    identity: assetIdentity(release.tag, asset),
    url: asset.url,
    assetName: asset.name,
    // Forgejo reports 0 for external assets: unknown, so the download is bounded by max_asset_size.
    size: asset.size !== undefined && asset.size > 0 ? asset.size : undefined,
    sha256: asset.sha256,
    ...checksumOf(release.assets, asset.name),
    zsyncUrl: findByName(release.assets, `${asset.name}.zsync`)?.url,
    releaseUrl: release.releaseUrl,
    immutable: release.immutable,
    publishedAt: release.publishedAt,
    releasedAt: release.publishedAt ? { at: release.publishedAt, what: 'published' } : undefined,
    viaProxy: release.viaProxy,
  };
}

/**
 * tag + asset name + the strongest fingerprint known: the digest, else the forge's asset id and
 * upload time (a re-uploaded asset under `continuous` gets a new id), else the URL.
 */
export function assetIdentity(tag: string, asset: ForgeAsset): string {
  let fingerprint: string;
  if (asset.sha256) fingerprint = `sha256:${asset.sha256}`;
  else if (asset.id !== undefined)
    fingerprint = `id:${asset.id}${asset.updatedAt ? `@${asset.updatedAt}` : ''}`;
  else fingerprint = `url:${asset.url}`;
  return `${tag}|${asset.name}|${fingerprint}`;
}

/** Hex digest from a hub `digest` field (`sha256:<hex>`); other algorithms are ignored. */
export function sha256FromDigest(digest: string | null | undefined): string | undefined {
  const match = /^sha256:([0-9a-f]{64})$/i.exec(digest ?? '');
  return match?.[1]?.toLowerCase();
}

// Per-asset sidecars first (their spellings in real releases), then a release-wide listing.
function checksumAsset(assets: readonly ForgeAsset[], name: string): ForgeAsset | undefined {
  const lower = name.toLowerCase();
  const sidecars = ['.sha256', '.sha256sum', '.sha256.txt', '-sha256.txt', '.digest'].map((s) => lower + s);
  for (const s of sidecars) {
    const found = assets.find((a) => a.name.toLowerCase() === s);
    if (found) return found;
  }
  return assets.find((a) => /^sha256sums(\.txt)?$/i.test(a.name));
}

// electron-builder writes `latest-linux.yml` for x86_64 and `latest-linux-<arch>.yml` for others.
function electronLatest(assets: readonly ForgeAsset[], name: string): ForgeAsset | undefined {
  const arch = /(?<![a-z0-9])(arm64|aarch64|armv7l|armhf)(?![a-z0-9])/i.exec(name)?.[1]?.toLowerCase();
  const wanted = arch ? [`latest-linux-${arch === 'aarch64' ? 'arm64' : arch}.yml`] : ['latest-linux.yml'];
  return assets.find((a) => wanted.includes(a.name.toLowerCase()));
}

/** The release's checksum sidecar for the asset, and how to read it. */
function checksumOf(
  assets: readonly ForgeAsset[],
  name: string,
): { checksumUrl?: string; checksumFormat?: 'sums' | 'electron-builder' } {
  const sums = checksumAsset(assets, name);
  if (sums) return { checksumUrl: sums.url, checksumFormat: 'sums' };
  const yml = electronLatest(assets, name);
  return yml ? { checksumUrl: yml.url, checksumFormat: 'electron-builder' } : {};
}

function findByName(assets: readonly ForgeAsset[], name: string): ForgeAsset | undefined {
  return assets.find((a) => a.name === name);
}
