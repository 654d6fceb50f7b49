import * as z from 'zod';

// What state.json may hold. Every path we later act on must be absolute and within PATH_MAX. Other
// strings are not bounded here: they come from forges (a tag may be long), and an entry set aside
// for its length would be reinstalled on every run; what reaches a terminal is bounded there.
const text = z.string();
const absPath = z
  .string()
  .max(4096)
  .refine((p) => p.startsWith('/') && !p.includes('\0'), 'must be an absolute path');
const isoTime = text;

// Objects are loose: keys this version does not know (written by a newer one) are kept as they are.
const installedSchema = z.looseObject({
  version: text,
  identity: text,
  file: absPath,
  url: text,
  size: z.number().int().nonnegative(),
  sha256: text,
  installedAt: isoTime,
  publishedAt: isoTime.optional(),
});

const launchSchema = z.looseObject({
  electron: text.optional(),
  libfuse2: z.boolean(),
  fixes: z.array(text).max(100),
});

const integrationSchema = z.looseObject({
  desktopId: text,
  desktopFile: absPath,
  icons: z.array(absPath).max(1000),
  launch: launchSchema.optional(),
});

export const releaseAssetSchema = z.looseObject({
  sha256: text.optional(),
  size: z.number().int().nonnegative().optional(),
  installedAt: isoTime,
});

/** An embedded-signature pin (state's `signature`), as an interrupted install's intent carries it. */
export const signatureStateSchema = z.looseObject({
  fingerprint: z.string().regex(/^[0-9A-F]{40}$/),
  pinnedBy: z.enum(['first-install', 'signing_key', 'adopt']),
  pinnedAt: isoTime,
  publicKey: text.optional(),
  lastVerified: z
    .looseObject({
      version: text,
      signerKeyId: text,
      hashAlgorithm: text,
      mode: z.enum(['binary', 'text']),
      signedAt: isoTime.nullable(),
      at: isoTime,
    })
    .optional(),
});

/** One app's entry; unknown keys (written by newer versions) are kept as they are. */
export const appStateSchema = z
  .object({
    strategy: text,
    installed: installedSchema.optional(),
    previous: installedSchema.extend({ integration: integrationSchema.optional() }).optional(),
    integration: integrationSchema.optional(),
    symlink: absPath.optional(),
    hold: z.boolean().optional(),
    lastCheck: isoTime.optional(),
    lastUpdate: isoTime.optional(),
    latest: z.object({ version: text, identity: text, checkedAt: isoTime }).optional(),
    lastError: z.object({ code: text, message: z.string(), at: isoTime }).optional(),
    releaseAssets: z.record(z.string(), releaseAssetSchema).optional(),
    retired: z
      .array(z.object({ from: absPath, backup: absPath }))
      .max(1000)
      .optional(),
    firstSeen: z.object({ identity: text, at: isoTime }).optional(),
  })
  .passthrough();

export const rateLimitSchema = z.object({ until: isoTime, message: z.string() });

export const forgeKindSchema = z.enum(['gitea', 'forgejo']);

/** The first line of an issue found by zod, for a warning. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}
