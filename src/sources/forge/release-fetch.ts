/** What every forge module returns, and schema parsing with errors that name the URL. */
import type * as z from 'zod';
import { KeeperError } from '../../core/errors.js';
import type { ForgeRelease } from './release.js';

/** A fetched release, or the rate-limit window that stopped the fetch. */
export type ReleaseFetch =
  | { kind: 'ok'; release: ForgeRelease; notModified: boolean; requests: number }
  | { kind: 'rate_limited'; retryAt: Date; host: string; message: string; requests: number };

/** Validates a forge response against its schema; FORGE_BAD_RESPONSE names the URL and the field. */
export function parseWith<T>(schema: z.ZodType<T>, body: unknown, url: string): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  throw new KeeperError(
    'FORGE_BAD_RESPONSE',
    `unexpected response from ${url}${where}: ${issue?.message ?? 'invalid'}`,
  );
}
