/**
 * Checks between resolving a release and downloading it that no comparison of identities can make:
 * a proxy must not downgrade an app, and a release asset we installed before must not change under
 * the same tag and name (a replaced asset is a supply-chain signal, not an update).
 */
import type { AppSettings } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import { isOlderRelease } from '../sources/forge/proxy-trust.js';
import { sourceFor, type AppSource, type Resolution } from '../sources/index.js';
import type { AppState, ReleaseAssetRecord } from '../state/types.js';

/** How many installed release assets state remembers per app. */
export const RELEASE_ASSET_HISTORY = 50;

/**
 * Tags that name a moving build rather than one release (`continuous`, `nightly-x86_64`, ...):
 * their assets are replaced by design, so a new digest under them is an update, not an alarm.
 */
const MOVING_TAG =
  /^(continuous|nightly|latest|dev|devel|development|edge|canary|snapshot|rolling|tip|master|main|trunk)([-_.].*)?$/i;

/** The key of a release asset in state: tag and file name. */
export function releaseAssetKey(tag: string, assetName: string): string {
  return `${tag}|${assetName}`;
}

/** True when a tag names a moving build whose assets are replaced by design. */
export function isMovingTag(tag: string): boolean {
  return MOVING_TAG.test(tag);
}

/**
 * Refuses a resolved release before anything is downloaded: PROXY_DOWNGRADE (always) and
 * ASSET_REPLACED (unless `force`), for sources whose assets belong to releases. Returns the error,
 * or undefined when the release may proceed.
 */
export function releaseGuard(
  settings: AppSettings,
  resolution: Resolution,
  state: AppState | undefined,
  force: boolean,
  source: Pick<AppSource, 'caps' | 'followedTag'> = sourceFor(settings),
): KeeperError | undefined {
  if (!source.caps.releaseAssets) return undefined;
  const installed = state?.installed;
  if (resolution.viaProxy !== undefined && installed && installed.identity !== resolution.identity) {
    const candidate = { tag: resolution.version, publishedAt: resolution.publishedAt };
    const current = { tag: installed.version, publishedAt: installed.publishedAt };
    if (isOlderRelease(candidate, current)) {
      return new KeeperError(
        'PROXY_DOWNGRADE',
        `proxy ${resolution.viaProxy} offered ${resolution.version}, which is older than the installed ${installed.version}; a proxied answer never downgrades an app`,
        {
          hint: 'the proxy may be stale or hostile; wait for the hub rate limit to end',
          details: { proxy: resolution.viaProxy, offered: resolution.version, installed: installed.version },
        },
      );
    }
  }
  // A recipe that follows one literal tag follows a moving build by definition, whatever its name.
  const followsTag = source.followedTag !== undefined;
  if (force || followsTag || isMovingTag(resolution.version)) return undefined;
  const seen = state?.releaseAssets?.[releaseAssetKey(resolution.version, resolution.assetName)];
  if (seen && assetChanged(seen, resolution)) {
    const was = seen.sha256 ? `sha256 ${seen.sha256}` : `${seen.size} bytes`;
    const now = resolution.sha256 && seen.sha256 ? `sha256 ${resolution.sha256}` : `${resolution.size} bytes`;
    return new KeeperError(
      'ASSET_REPLACED',
      `${resolution.assetName} of release ${resolution.version} was replaced since we installed it (was ${was}, now ${now})${resolution.releaseUrl ? `; see ${resolution.releaseUrl}` : ''}`,
      {
        hint: `a release asset should never change under the same tag; if the publisher confirms it, run \`update --force ${settings.name}\``,
        details: {
          tag: resolution.version,
          asset: resolution.assetName,
          old_sha256: seen.sha256 ?? null,
          new_sha256: resolution.sha256 ?? null,
          old_size: seen.size ?? null,
          new_size: resolution.size ?? null,
          release_url: resolution.releaseUrl ?? null,
        },
      },
    );
  }
  return undefined;
}

function assetChanged(seen: ReleaseAssetRecord, r: Resolution): boolean {
  if (seen.sha256 && r.sha256) return seen.sha256 !== r.sha256;
  if (seen.size !== undefined && r.size !== undefined) return seen.size !== r.size;
  return false;
}

/** State's record of installed release assets with `resolution`'s asset added (bounded, newest last). */
export function rememberReleaseAsset(
  history: Readonly<Record<string, ReleaseAssetRecord>> | undefined,
  resolution: Resolution,
  installedSize: number,
  at: string,
): Record<string, ReleaseAssetRecord> {
  const key = releaseAssetKey(resolution.version, resolution.assetName);
  const entries = Object.entries(history ?? {}).filter(([k]) => k !== key);
  const record: ReleaseAssetRecord = {
    ...(resolution.sha256 ? { sha256: resolution.sha256 } : {}),
    size: resolution.size ?? installedSize,
    installedAt: at,
  };
  entries.push([key, record]);
  return Object.fromEntries(entries.slice(-RELEASE_ASSET_HISTORY));
}
