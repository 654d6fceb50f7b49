/**
 * A check of state.json's entries by hand, so that a command reading state with installed apps
 * (every `list`, `info`, `update`) need not load zod (docs/decisions.md, "Start-up"). It answers
 * true only when every entry surely passes schema.ts, and then the schema would return the same
 * values: its loose objects keep unknown keys, and the objects it would strip (`latest`,
 * `lastError`, `firstSeen`, `retired` items, rate-limit windows) are declined when they hold one.
 * Anything else, or any doubt, answers false and sanitize.ts checks the file with the schema, which
 * also words the warnings. `test/state/plain-state.test.ts` compares the two on mutated states.
 */
import type { StateData } from './types.js';

type Obj = Record<string, unknown>;
/** Each key's check; an absent key reads as `undefined`. */
type Fields = Record<string, (x: unknown) => boolean>;

// Schema.ts's bound on a path, and on the arrays it bounds.
const MAX_PATH = 4096;
const FINGERPRINT = /^[0-9A-F]{40}$/;

function isObj(v: unknown): v is Obj {
  return (
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype
  );
}

// JSON.parse makes `__proto__` an own key; zod's copy would not keep it as one: doubt.
function plainKeys(o: Obj): boolean {
  return !Object.hasOwn(o, '__proto__');
}

const str = (v: unknown): boolean => typeof v === 'string';
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';
const absPath = (v: unknown): boolean =>
  typeof v === 'string' && v.length <= MAX_PATH && v.startsWith('/') && !v.includes('\0');
const count = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

// An object of exactly these keys (zod's default strips others: declined), each passing its check.
function exact(v: unknown, fields: Fields): boolean {
  if (!isObj(v)) return false;
  for (const key of Object.keys(v)) if (!Object.hasOwn(fields, key)) return false;
  return loose(v, fields);
}

// A loose object: these keys pass their checks (an absent optional key is `undefined`), others are kept.
function loose(v: unknown, fields: Fields): boolean {
  if (!isObj(v) || !plainKeys(v)) return false;
  for (const [key, check] of Object.entries(fields)) if (!check(v[key])) return false;
  return true;
}

const optional =
  (check: (x: unknown) => boolean) =>
  (v: unknown): boolean =>
    v === undefined || check(v);

const arrayOf =
  (check: (x: unknown) => boolean, max: number) =>
  (v: unknown): boolean =>
    Array.isArray(v) && v.length <= max && v.every(check);

const PROVENANCE_BUILD: Fields = {
  predicateType: str,
  signerWorkflow: str,
  sourceRepository: str,
  sourceCommit: optStr,
  sourceRef: optStr,
};
const PROVENANCE_RELEASE: Fields = { predicateType: str, signer: str, tag: str };
const PROVENANCE: Fields = {
  digest: str,
  build: optional((b) => loose(b, PROVENANCE_BUILD)),
  release: optional((r) => loose(r, PROVENANCE_RELEASE)),
  verifiedAt: str,
};
const INSTALLED: Fields = {
  version: str,
  identity: str,
  file: absPath,
  url: str,
  size: count,
  sha256: str,
  installedAt: str,
  provenance: optional((p) => loose(p, PROVENANCE)),
  publishedAt: optStr,
};
const LAUNCH: Fields = {
  electron: optStr,
  libfuse2: (b) => typeof b === 'boolean',
  fixes: arrayOf(str, 100),
};
const INTEGRATION: Fields = {
  desktopId: str,
  desktopFile: absPath,
  icons: arrayOf(absPath, 1000),
  launch: optional((l) => loose(l, LAUNCH)),
};
const PREVIOUS: Fields = { ...INSTALLED, integration: optional((i) => loose(i, INTEGRATION)) };
const RELEASE_ASSET: Fields = { sha256: optStr, size: optional(count), installedAt: str };
const LAST_VERIFIED: Fields = {
  version: str,
  signerKeyId: str,
  hashAlgorithm: str,
  mode: (m) => m === 'binary' || m === 'text',
  signedAt: (s) => s === null || typeof s === 'string',
  at: str,
};
const SIGNATURE: Fields = {
  fingerprint: (f) => typeof f === 'string' && FINGERPRINT.test(f),
  pinnedBy: (p) => p === 'first-install' || p === 'signing_key' || p === 'adopt',
  pinnedAt: str,
  publicKey: optStr,
  lastVerified: optional((l) => loose(l, LAST_VERIFIED)),
};
const LATEST: Fields = { version: str, identity: str, checkedAt: str };
const LAST_ERROR: Fields = { code: str, message: str, at: str };
const RETIRED: Fields = { from: absPath, backup: absPath };
const FIRST_SEEN: Fields = { identity: str, at: str };

const recordOf =
  (check: (x: unknown) => boolean) =>
  (v: unknown): boolean =>
    isObj(v) && plainKeys(v) && Object.values(v).every(check);

const APP: Fields = {
  strategy: str,
  installed: optional((i) => loose(i, INSTALLED)),
  previous: optional((p) => loose(p, PREVIOUS)),
  integration: optional((i) => loose(i, INTEGRATION)),
  symlink: optional(absPath),
  hold: optional((h) => typeof h === 'boolean'),
  removedAt: optStr,
  lastCheck: optStr,
  lastUpdate: optStr,
  latest: optional((l) => exact(l, LATEST)),
  lastError: optional((e) => exact(e, LAST_ERROR)),
  signature: optional((g) => loose(g, SIGNATURE)),
  releaseAssets: optional(recordOf((a) => loose(a, RELEASE_ASSET))),
  retired: optional(arrayOf((r) => exact(r, RETIRED), 1000)),
  firstSeen: optional((f) => exact(f, FIRST_SEEN)),
};
const RATE_LIMIT: Fields = { until: str, message: str, url: optStr, host: optStr };

/**
 * Every table of fields by where its object sits (`[]` an array's items, `{}` a record's values),
 * for the test that keeps each one's keys equal to schema.ts's.
 */
export const PLAIN_STATE_TABLES: Readonly<Record<string, Fields>> = {
  app: APP,
  'app.installed': INSTALLED,
  'app.installed.provenance': PROVENANCE,
  'app.installed.provenance.build': PROVENANCE_BUILD,
  'app.installed.provenance.release': PROVENANCE_RELEASE,
  'app.previous': PREVIOUS,
  'app.previous.provenance': PROVENANCE,
  'app.previous.provenance.build': PROVENANCE_BUILD,
  'app.previous.provenance.release': PROVENANCE_RELEASE,
  'app.previous.integration': INTEGRATION,
  'app.previous.integration.launch': LAUNCH,
  'app.integration': INTEGRATION,
  'app.integration.launch': LAUNCH,
  'app.latest': LATEST,
  'app.lastError': LAST_ERROR,
  'app.signature': SIGNATURE,
  'app.signature.lastVerified': LAST_VERIFIED,
  'app.releaseAssets{}': RELEASE_ASSET,
  'app.retired[]': RETIRED,
  'app.firstSeen': FIRST_SEEN,
  rateLimit: RATE_LIMIT,
};

/** True when every app entry, rate-limit window and forge detection of `data` surely passes the schema. */
export function plainStateValid(data: StateData): boolean {
  return (
    Object.values(data.apps).every((app) => loose(app, APP)) &&
    Object.values(data.rateLimits).every((w) => exact(w, RATE_LIMIT)) &&
    Object.values(data.forgeKinds).every((k) => k === 'gitea' || k === 'forgejo')
  );
}
