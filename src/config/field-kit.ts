/**
 * The zod building blocks of the field tables (fields.ts, recipe-fields.ts): their schemas are
 * functions of this kit, called by schema.ts. Only validation with zod loads this module, so a
 * command whose files are all in the validated cache (validated-cache.ts) never loads zod.
 */
import * as z from 'zod';
import { parseDuration } from './duration.js';
import { forgeUrlBase, type ForgeUrlKind } from './forge-url-template.js';
import { namingFormatIssues } from './naming-format.js';
import {
  ENV_NAME,
  FINGERPRINT,
  isRepositoryUrl,
  PROVENANCE_SIGNER,
  PROXY_PREFIX_WANTED,
  readProxyPrefix,
} from './field-rules.js';
import { urlFieldProblem } from './url-field.js';
import { isHttpUrl } from './fields.js';
import { normaliseFingerprint } from './recipe-fields.js';

/** A URL field of a config or recipe: checked raw (before trimming could hide a control character). */
const httpUrl = z
  .string()
  .superRefine((v, ctx) => {
    const problem = urlFieldProblem(v);
    if (!problem) return;
    const message = problem.hint ? `${problem.message}; ${problem.hint}` : problem.message;
    ctx.addIssue({ code: 'custom', message, abort: true });
  })
  .transform((v) => v.trim());

// A base URL, or fp-appimage-updater's per-repository template reduced to its base.
function forgeUrl(kind: ForgeUrlKind) {
  return httpUrl.transform((value, ctx) => {
    const r = forgeUrlBase(value, kind);
    if ('base' in r) return r.base;
    ctx.addIssue({ code: 'custom', message: r.error });
    return z.NEVER;
  });
}

// Checked as a proxy URL where the run's network settings are built (PROXY_INVALID); here only
// bounded, since the value may hold a password and must never be echoed in a config error.
const proxySetting = z.string().trim().max(2048, 'is too long');

const pathString = z.string().trim().min(1, 'must not be empty');

const namingFormat = z
  .string()
  .min(1, 'must not be empty')
  .superRefine((value, ctx) => {
    for (const message of namingFormatIssues(value)) ctx.addIssue({ code: 'custom', message });
  });

// `3d` in the file, seconds in the settings; 0 (a recipe turning off a config.yml cooldown) is none.
const releaseAge = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const r = parseDuration(value);
  if ('seconds' in r) return r.seconds;
  ctx.addIssue({ code: 'custom', message: r.error });
  return z.NEVER;
});

// Checked entry by entry (proxy-prefix.ts), not as a union of URL schemas, so a URL's own problem,
// such as credentials, is what the user reads, at the entry's position.
const proxyPrefix = z
  .union([z.string(), z.array(z.string())], { error: PROXY_PREFIX_WANTED })
  .transform((value, ctx): 'all' | string[] => {
    const r = readProxyPrefix(value);
    if ('value' in r) return r.value;
    for (const issue of r.issues) ctx.addIssue({ code: 'custom', ...issue });
    return z.NEVER;
  });

// A workflow file of a repository, as certificates name it after the host: owner/repo/.github/workflows/x.yml.
const provenanceSigner = z.string().trim().regex(PROVENANCE_SIGNER, {
  message: 'must look like owner/repo/.github/workflows/file.yml',
});

// zod keeps running refinements after the URL check fails, so a non-URL must pass here silently
// (it is already reported) instead of making `new URL` throw.
const repositoryUrl = httpUrl.refine((v) => !isHttpUrl(v) || isRepositoryUrl(new URL(v)), {
  message: 'must be a repository URL like https://<host>/<owner>/<repo>',
});

export const forgeStrategySchema = z.strictObject({
  strategy: z.literal('forge'),
  repository: repositoryUrl,
  asset_match: z.string().min(1, 'must not be empty').optional(),
  asset_match_regex: z.string().min(1, 'must not be empty').optional(),
  inner_asset_match: z.string().min(1, 'must not be empty').optional(),
  prerelease: z
    .union([z.boolean(), z.literal('only')], { message: 'must be true, false or "only"' })
    .optional(),
  tag: z.string().trim().min(1, 'must not be empty').optional(),
});

export const directStrategySchema = z.strictObject({
  strategy: z.literal('direct'),
  url: httpUrl,
  check_method: z.enum(['etag', 'last-modified'], { message: 'must be "etag" or "last-modified"' }),
});

export const scriptStrategySchema = z.strictObject({
  strategy: z.literal('script'),
  script_path: z.string().trim().min(1, 'must not be empty'),
  timeout: z.number().positive().max(3600).optional(),
  script_env_token: z.boolean().optional(),
});

export const strategySchema = z.discriminatedUnion('strategy', [
  forgeStrategySchema,
  directStrategySchema,
  scriptStrategySchema,
]);

const fingerprint = z
  .string()
  .transform(normaliseFingerprint)
  .refine((v) => FINGERPRINT.test(v), {
    message: 'must be a full 40-hex-digit OpenPGP key fingerprint (a short key id can be forged)',
  });

/** The kit the field tables' schema functions receive. */
export const fieldKit = {
  z,
  httpUrl,
  forgeUrl,
  proxySetting,
  pathString,
  namingFormat,
  releaseAge,
  proxyPrefix,
  provenanceSigner,
  strategySchema,
  fingerprint,
  envName: ENV_NAME,
};

/** What fields.ts and recipe-fields.ts build their schemas from. */
export type FieldKit = typeof fieldKit;
