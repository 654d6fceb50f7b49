/**
 * The release shape the hub and Gitea/Forgejo share (Gitea copied the hub's REST layout): the
 * common fields of an asset and a release, and picking the newest published one from a list.
 * Each forge module extends the asset with its own timestamp/digest fields.
 */
import { z } from 'zod';
import { KeeperError } from '../core/errors.js';
import { parseWith } from './release-fetch.js';

/** Asset fields both forges send. */
export const RestAsset = z.object({
  id: z.union([z.number(), z.string()]).optional(),
  name: z.string(),
  size: z.number().optional(),
  browser_download_url: z.string(),
});

/** A release schema whose assets follow `asset`. */
export function restRelease<A extends z.ZodType>(asset: A) {
  return z.object({
    tag_name: z.string(),
    draft: z.boolean().optional(),
    prerelease: z.boolean().optional(),
    html_url: z.string().optional(),
    published_at: z.string().nullish(),
    assets: z.array(asset),
  });
}

/**
 * Parses the release a recipe follows: the `latest` object, or (pre-releases wanted) the newest
 * non-draft entry of the release list; FORGE_NO_RELEASE when the list has none.
 */
export function parseRestRelease<R extends { draft?: boolean | undefined }>(
  schema: z.ZodType<R>,
  body: unknown,
  url: string,
  prerelease: boolean,
  slug: string,
): R {
  if (!prerelease) return parseWith(schema, body, url);
  const first = parseWith(z.array(schema), body, url).find((r) => r.draft !== true);
  if (!first) throw new KeeperError('FORGE_NO_RELEASE', `${slug} has no published release`);
  return first;
}
