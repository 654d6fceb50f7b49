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
// The types below are inferred from these schemas (the outer object without the index signature a
// loose parse adds), so what the code may rely on is exactly what a load checked.

// An object's declared keys: not the `string` index a loose object adds.
type Declared<K> = string extends K ? never : number extends K ? never : K;
type DeclaredKeys<T> = keyof { [K in keyof T as Declared<K>]: 0 };

/**
 * What a schema's parse returns, without the index signatures loose objects add at any depth (a
 * plain record, which has only an index, is kept): the code relies on the declared keys only.
 */
export type Known<T> = T extends readonly (infer U)[]
  ? Known<U>[]
  : T extends object
    ? [DeclaredKeys<T>] extends [never]
      ? { [K in keyof T]: Known<T[K]> }
      : { [K in keyof T as Declared<K>]: Known<T[K]> }
    : T;

const provenanceSchema = z.looseObject({
  /** `sha256:<hex>` of the asset the attestations name. */
  digest: text,
  /** Build provenance, when it verified. */
  build: z
    .looseObject({
      predicateType: text,
      /** Certificate SAN: the workflow that signed, `https://github.com/o/r/.github/workflows/f.yml@ref`. */
      signerWorkflow: text,
      sourceRepository: text,
      sourceCommit: text.optional(),
      sourceRef: text.optional(),
    })
    .optional(),
  /** Release attestation, when it verified. */
  release: z.looseObject({ predicateType: text, signer: text, tag: text }).optional(),
  verifiedAt: isoTime,
});

/** A verified attestation of an installed asset (absent when provenance is off or nothing verified). */
export type ProvenanceRecord = Known<z.output<typeof provenanceSchema>>;

const installedSchema = z.looseObject({
  version: text,
  /** The remote identity compared on the next run (tag+asset, header value, script URL+version). */
  identity: text,
  /** Absolute path of the installed AppImage. */
  file: absPath,
  url: text,
  size: z.number().int().nonnegative(),
  sha256: text,
  installedAt: isoTime,
  /** Attestations verified before this file was downloaded. */
  provenance: provenanceSchema.optional(),
  /** forge: when the installed release was published, so a proxy cannot offer an older one. */
  publishedAt: isoTime.optional(),
});

/** What we installed for one app; `remove` and `rollback` undo exactly this. */
export type InstalledRecord = Known<z.output<typeof installedSchema>>;

const launchSchema = z.looseObject({
  /** In-image path marking an Electron app, when it is one. */
  electron: text.optional(),
  /** The runtime loads libfuse.so.2. */
  libfuse2: z.boolean(),
  /** Ids of the fixes the desktop entry carries (`no-sandbox`, `extract-and-run`). */
  fixes: z.array(text).max(100),
});

/** Launch traits of the installed file (read once per install) and the fixes written for them. */
export type LaunchRecord = Known<z.output<typeof launchSchema>>;

const integrationSchema = z.looseObject({
  desktopId: text,
  desktopFile: absPath,
  icons: z.array(absPath).max(1000),
  /** What the installed AppImage needs to start, and the launch fixes its entry carries. */
  launch: launchSchema.optional(),
});

/** Desktop entry and icons we wrote for an app. */
export type IntegrationState = Known<z.output<typeof integrationSchema>>;

export const releaseAssetSchema = z.looseObject({
  sha256: text.optional(),
  size: z.number().int().nonnegative().optional(),
  installedAt: isoTime,
});

/** A release asset we installed once; a later different digest or size under the same tag is an alarm. */
export type ReleaseAssetRecord = Known<z.output<typeof releaseAssetSchema>>;

const lastVerifiedSchema = z.looseObject({
  version: text,
  /** Key id of the key that signed (the primary or one of its signing subkeys). */
  signerKeyId: text,
  hashAlgorithm: text,
  mode: z.enum(['binary', 'text']),
  signedAt: isoTime.nullable(),
  at: isoTime,
});

/** An embedded-signature pin (state's `signature`), as an interrupted install's intent carries it. */
export const signatureStateSchema = z.looseObject({
  /** v4 fingerprint of the pinned primary key: 40 upper-case hex digits. */
  fingerprint: z.string().regex(/^[0-9A-F]{40}$/),
  /** `first-install`: the first signed install's own key; `signing_key`: the recipe; `adopt`: an adopted file. */
  pinnedBy: z.enum(['first-install', 'signing_key', 'adopt']),
  pinnedAt: isoTime,
  /** Base64 body of the pinned key's public key packet: updates verify with it, not with the new file's key. */
  publicKey: text.optional(),
  /** The last embedded signature verified for an installed version. */
  lastVerified: lastVerifiedSchema.optional(),
});

/** The OpenPGP key an app's AppImages must be signed with (key continuity), and the last signature seen. */
export type SignatureState = Known<z.output<typeof signatureStateSchema>>;

/** One app's entry; unknown keys (written by newer versions) are kept as they are. */
export const appStateSchema = z
  .object({
    strategy: text,
    installed: installedSchema.optional(),
    /** Kept for rollback; lives outside the naming pattern. */
    previous: installedSchema.extend({ integration: integrationSchema.optional() }).optional(),
    integration: integrationSchema.optional(),
    symlink: absPath.optional(),
    /** Held apps are skipped by update until `update --force` or `unhold`. */
    hold: z.boolean().optional(),
    /** Set by `remove` (ISO time): nothing is installed and `update` skips the app until it is named. */
    removedAt: isoTime.optional(),
    lastCheck: isoTime.optional(),
    lastUpdate: isoTime.optional(),
    /** Latest version seen by check or update. */
    latest: z.object({ version: text, identity: text, checkedAt: isoTime }).optional(),
    lastError: z.object({ code: text, message: z.string(), at: isoTime }).optional(),
    /** Embedded-signature pin; absent while the app has only been installed unsigned. */
    signature: signatureStateSchema.optional(),
    /** forge: every installed release asset by `tag|name` (bounded), for the replaced-asset alarm. */
    releaseAssets: z.record(z.string(), releaseAssetSchema).optional(),
    retired: z
      .array(z.object({ from: absPath, backup: absPath }))
      .max(1000)
      .optional(),
    /**
     * When this machine first saw the release `identity` (ISO time): min_release_age counts from it
     * when the source gives no usable release time (scripts, a URL without Last-Modified).
     */
    firstSeen: z.object({ identity: text, at: isoTime }).optional(),
  })
  .passthrough();

/** Per-app state. */
export type AppState = Known<z.output<typeof appStateSchema>>;

export const rateLimitSchema = z.object({
  /** ISO timestamp at which requests may be sent again. */
  until: isoTime,
  message: z.string(),
  /** The URL the app requested when the limit came (the window ends when the app's URL changes). */
  url: text.optional(),
  /** Host that answered with the limit (after redirects). */
  host: text.optional(),
});

/**
 * An open rate-limit window of one app (`app:<name>`): it holds only while the app still asks the
 * same URL, and names the host that answered with the limit.
 */
export type RateLimitWindow = z.output<typeof rateLimitSchema>;

export const forgeKindSchema = z.enum(['gitea', 'forgejo']);

/** What a forge host detected as Gitea-like turned out to be. */
export type ForgeKind = z.output<typeof forgeKindSchema>;

/** The first line of an issue found by zod, for a warning. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}
