/**
 * The release shape the hub and Gitea/Forgejo share (Gitea copied the hub's REST layout): the
 * common fields of an asset and a release, and picking the newest published one from a list.
 * Each forge module extends the asset with its own timestamp/digest fields.
 */
import * as z from 'zod';
import type { ForgeStrategy } from '../../config/types.js';
import { KeeperError } from '../../core/errors.js';
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
 * Which release a forge recipe follows: the forge's latest, the newest entry of the release list
 * (pre-releases included, or only pre-releases), or one literal tag.
 */
export type ReleaseChoice =
  { kind: 'latest' } | { kind: 'list'; only: boolean } | { kind: 'tag'; tag: string };

/** The release choice a forge strategy asks for (`tag` wins over `prerelease`). */
export function releaseChoice(strategy: ForgeStrategy): ReleaseChoice {
  if (strategy.tag !== undefined) return { kind: 'tag', tag: strategy.tag };
  if (strategy.prerelease === 'only') return { kind: 'list', only: true };
  if (strategy.prerelease === true) return { kind: 'list', only: false };
  return { kind: 'latest' };
}

/** What a release request fetched, for messages: `latest release of o/r`, `release continuous of o/r`. */
export function releaseWhat(choice: ReleaseChoice, slug: string): string {
  if (choice.kind === 'tag') return `release ${choice.tag} of ${slug}`;
  if (choice.kind === 'list') return `${choice.only ? 'pre-releases' : 'releases'} of ${slug}`;
  return `latest release of ${slug}`;
}

/**
 * Parses the release a recipe follows: the `latest` or tagged object, or (list) the newest
 * non-draft entry of the release list, a pre-release when `only`; FORGE_NO_RELEASE when the list has none.
 */
export function parseRestRelease<R extends { draft?: boolean | undefined; prerelease?: boolean | undefined }>(
  schema: z.ZodType<R>,
  body: unknown,
  url: string,
  choice: ReleaseChoice,
  slug: string,
): R {
  if (choice.kind !== 'list') return parseWith(schema, body, url);
  const first = parseWith(z.array(schema), body, url).find(
    (r) => r.draft !== true && (!choice.only || r.prerelease === true),
  );
  if (!first)
    throw new KeeperError(
      'FORGE_NO_RELEASE',
      `${slug} has no published ${choice.only ? 'pre-release' : 'release'}`,
    );
  return first;
}
