/**
 * Whether a host no forge owns by name (routing: src/sources/forges.ts) is a Gitea or Forgejo, by
 * asking `/swagger.v1.json`. The answer for an origin is kept in the store, so it is asked once.
 */
import * as z from 'zod';
import type { AppSettings } from '../../config/types.js';
import { KeeperError } from '../../core/errors.js';
import type { DetectedForgeKind, ResolveDeps } from '../types.js';
import { fetchMetadata } from './metadata.js';

const NOT_A_FORGE = new Set(['FORGE_NOT_FOUND', 'FORGE_HTTP_ERROR', 'FORGE_FORBIDDEN', 'HTTP_BAD_JSON']);

const Swagger = z.object({ info: z.object({ title: z.string() }) });

/** Result of asking a host what it is. */
export type DetectResult =
  | { kind: 'ok'; forge: DetectedForgeKind; requests: number }
  | { kind: 'rate_limited'; retryAt: Date; host: string; message: string; requests: number };

/** Identifies a self-hosted forge through `/swagger.v1.json`, using and filling the store's cache. */
export async function detectSelfHosted(
  origin: string,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<DetectResult> {
  const known = deps.store.getForgeKind(origin);
  if (known) return { kind: 'ok', forge: known, requests: 0 };
  const url = `${origin}/swagger.v1.json`;
  let result;
  try {
    result = await fetchMetadata(
      {
        url,
        headers: { accept: 'application/json' },
        conditional: false,
        what: `forge detection for ${origin}`,
      },
      settings,
      deps,
    );
  } catch (err) {
    // A host that answers but not like a Gitea/Forgejo is unknown; an unreachable one stays a network error.
    if (err instanceof KeeperError && NOT_A_FORGE.has(err.code)) throw unknownForge(origin, err.message, err);
    throw err;
  }
  if (result.kind === 'rate_limited') return result;
  const parsed = Swagger.safeParse(result.body);
  const title = parsed.success ? parsed.data.info.title : undefined;
  const forge = title === 'Gitea API' ? 'gitea' : title === 'Forgejo API' ? 'forgejo' : undefined;
  if (!forge) {
    throw unknownForge(origin, title ? `${url} describes "${title}"` : `${url} has no info.title`);
  }
  deps.store.setForgeKind(origin, forge);
  return { kind: 'ok', forge, requests: result.requests };
}

function unknownForge(origin: string, reason: string, cause?: unknown): KeeperError {
  return new KeeperError('FORGE_UNKNOWN', `cannot tell which forge ${origin} runs: ${reason}`, {
    hint:
      'supported: github.com and gitlab.com (or the hosts of hub_release_web_url / lab_release_web_url), ' +
      'and Gitea or Forgejo instances; otherwise use the direct or script strategy',
    cause,
  });
}
