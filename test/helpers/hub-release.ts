import type { Sim, SimReleaseAsset } from '../../sim/index.js';
import { sha256 } from './sha256.js';

/** Where a published asset lives on the sim. */
export interface PublishedAsset {
  assetName: string;
  /** Path of the asset on the sim (what the sim records for its requests). */
  path: string;
  url: string;
}

/** Options of one release published by `publishHubRelease`. */
export interface HubReleaseOptions {
  /** Asset file name (default `<app>-<version>-x86_64.AppImage`). */
  assetName?: string;
  /** `true` = the correct `sha256:` digest (default), a string = that digest, false = none. */
  digest?: boolean | string;
  /** More assets of the same release, or a function of the published asset that returns them. */
  extra?: SimReleaseAsset[] | ((published: PublishedAsset) => SimReleaseAsset[]);
  contentType?: string;
}

/**
 * Publishes `body` as release `version` (tag = version) of hub repository `e2e/<app>`, serving
 * the asset at the hub's own download path, `/e2e/<app>/releases/download/<version>/<asset>`.
 */
export function publishHubRelease(
  sim: Sim,
  app: string,
  version: string,
  body: Buffer,
  opts: HubReleaseOptions = {},
): PublishedAsset {
  const assetName = opts.assetName ?? `${app}-${version}-x86_64.AppImage`;
  const path = `/e2e/${app}/releases/download/${version}/${assetName}`;
  const url = sim.putAsset(path, body, opts.contentType ? { contentType: opts.contentType } : {});
  const published = { assetName, path, url };
  const digest =
    opts.digest === false
      ? undefined
      : typeof opts.digest === 'string'
        ? opts.digest
        : `sha256:${sha256(body)}`;
  const extra = typeof opts.extra === 'function' ? opts.extra(published) : (opts.extra ?? []);
  sim.hub.setLatest('e2e', app, {
    tag: version,
    assets: [{ name: assetName, url, ...(digest ? { digest } : {}) }, ...extra],
  });
  return published;
}
