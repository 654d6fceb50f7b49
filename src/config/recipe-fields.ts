import * as z from 'zod';
import { httpUrl, isHttpUrl } from './fields.js';

/** Fields that exist only in recipes (beyond the overridable global fields). */
export interface RecipeFieldSpec {
  key: string;
  type: string;
  required: boolean;
  default: unknown;
  description: string;
  aliases: string[];
  schema: z.ZodType;
}

// zod keeps running refinements after the URL check fails, so a non-URL must pass here silently
// (it is already reported) instead of making `new URL` throw.
const repositoryUrl = httpUrl.refine(
  (v) => !isHttpUrl(v) || new URL(v).pathname.split('/').filter(Boolean).length >= 2,
  { message: 'must be a repository URL like https://<host>/<owner>/<repo>' },
);

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

export const STRATEGY_KEYS: Record<string, string[]> = {
  forge: Object.keys(forgeStrategySchema.shape),
  direct: Object.keys(directStrategySchema.shape),
  script: Object.keys(scriptStrategySchema.shape),
};

export const strategySchema = z.discriminatedUnion('strategy', [
  forgeStrategySchema,
  directStrategySchema,
  scriptStrategySchema,
]);

/** A v4 OpenPGP fingerprint as people paste it (spaces, `0x`, any case) → 40 upper-case hex digits. */
export function normaliseFingerprint(value: string): string {
  return value.replace(/\s+/g, '').replace(/^0x/i, '').toUpperCase();
}

const fingerprint = z
  .string()
  .transform(normaliseFingerprint)
  .refine((v) => /^[0-9A-F]{40}$/.test(v), {
    message: 'must be a full 40-hex-digit OpenPGP key fingerprint (a short key id can be forged)',
  });

const envName = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const RECIPE_FIELDS: RecipeFieldSpec[] = [
  {
    key: 'name',
    type: 'string',
    required: true,
    default: undefined,
    description:
      'App name; used for {name}, the symlink and the command line. One line of up to 100 bytes, without `/`, not `.` or `..`',
    aliases: [],
    schema: z.string(),
  },
  {
    key: 'strategy',
    type: 'object',
    required: true,
    default: undefined,
    description: 'How to find the latest version: forge, direct or script (see below).',
    aliases: [],
    schema: strategySchema,
  },
  {
    key: 'ignore',
    type: 'boolean',
    required: false,
    default: false,
    description: 'Keep the app listed but skip it in check and update.',
    aliases: [],
    schema: z.boolean(),
  },
  {
    key: 'inner_asset_match',
    type: 'string',
    required: false,
    default: undefined,
    description: 'Glob selecting the AppImage inside a ZIP asset (same as strategy.inner_asset_match).',
    aliases: [],
    schema: z.string().min(1, 'must not be empty'),
  },
  {
    key: 'zsync',
    type: 'boolean, "auto" or URL',
    required: false,
    default: false,
    description:
      'Delta updates: true = <download URL>.zsync, auto = a .zsync asset of the release, or a URL.',
    aliases: [],
    schema: z.union([z.boolean(), z.literal('auto'), httpUrl]),
  },
  {
    key: 'signing_key',
    type: 'string (fingerprint)',
    required: false,
    default: undefined,
    description:
      'OpenPGP key fingerprint the embedded signature must come from (pins it instead of trusting the first signed file).',
    aliases: [],
    schema: fingerprint,
  },
  {
    key: 'desktop_exec_args',
    type: 'list of strings',
    required: false,
    default: [],
    description:
      'Arguments appended to every Exec line of the desktop entry (e.g. --no-sandbox). No control characters.',
    aliases: [],
    schema: z.array(z.string()),
  },
  {
    key: 'desktop_env',
    type: 'map of strings',
    required: false,
    default: {},
    description:
      'Environment variables set when the desktop entry launches the app. Values hold no control characters.',
    aliases: [],
    schema: z.record(
      z.string().regex(envName, 'must be a valid environment variable name'),
      z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v)),
    ),
  },
];
