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
function exact(v: unknown, fields: Record<string, (x: unknown) => boolean>): boolean {
  if (!isObj(v)) return false;
  for (const key of Object.keys(v)) if (!Object.hasOwn(fields, key)) return false;
  return loose(v, fields);
}

// A loose object: these keys pass their checks (an absent optional key is `undefined`), others are kept.
function loose(v: unknown, fields: Record<string, (x: unknown) => boolean>): boolean {
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

const provenance = (v: unknown): boolean =>
  loose(v, {
    digest: str,
    build: optional((b) =>
      loose(b, {
        predicateType: str,
        signerWorkflow: str,
        sourceRepository: str,
        sourceCommit: optStr,
        sourceRef: optStr,
      }),
    ),
    release: optional((r) => loose(r, { predicateType: str, signer: str, tag: str })),
    verifiedAt: str,
  });

const INSTALLED = {
  version: str,
  identity: str,
  file: absPath,
  url: str,
  size: count,
  sha256: str,
  installedAt: str,
  provenance: optional(provenance),
  publishedAt: optStr,
};

const launch = (v: unknown): boolean =>
  loose(v, {
    electron: optStr,
    libfuse2: (b) => typeof b === 'boolean',
    fixes: arrayOf(str, 100),
  });

const integration = (v: unknown): boolean =>
  loose(v, { desktopId: str, desktopFile: absPath, icons: arrayOf(absPath, 1000), launch: optional(launch) });

const releaseAsset = (v: unknown): boolean =>
  loose(v, { sha256: optStr, size: optional(count), installedAt: str });

const signature = (v: unknown): boolean =>
  loose(v, {
    fingerprint: (f) => typeof f === 'string' && FINGERPRINT.test(f),
    pinnedBy: (p) => p === 'first-install' || p === 'signing_key' || p === 'adopt',
    pinnedAt: str,
    publicKey: optStr,
    lastVerified: optional((l) =>
      loose(l, {
        version: str,
        signerKeyId: str,
        hashAlgorithm: str,
        mode: (m) => m === 'binary' || m === 'text',
        signedAt: (s) => s === null || typeof s === 'string',
        at: str,
      }),
    ),
  });

const recordOf =
  (check: (x: unknown) => boolean) =>
  (v: unknown): boolean =>
    isObj(v) && plainKeys(v) && Object.values(v).every(check);

const APP = {
  strategy: str,
  installed: optional((i) => loose(i, INSTALLED)),
  previous: optional((p) => loose(p, { ...INSTALLED, integration: optional(integration) })),
  integration: optional(integration),
  symlink: optional(absPath),
  hold: optional((h) => typeof h === 'boolean'),
  removedAt: optStr,
  lastCheck: optStr,
  lastUpdate: optStr,
  latest: optional((l) => exact(l, { version: str, identity: str, checkedAt: str })),
  lastError: optional((e) => exact(e, { code: str, message: str, at: str })),
  signature: optional(signature),
  releaseAssets: optional(recordOf(releaseAsset)),
  retired: optional(arrayOf((r) => exact(r, { from: absPath, backup: absPath }), 1000)),
  firstSeen: optional((f) => exact(f, { identity: str, at: str })),
};

const rateLimit = (v: unknown): boolean => exact(v, { until: str, message: str, url: optStr, host: optStr });

/** True when every app entry, rate-limit window and forge detection of `data` surely passes the schema. */
export function plainStateValid(data: StateData): boolean {
  return (
    Object.values(data.apps).every((app) => loose(app, APP)) &&
    Object.values(data.rateLimits).every(rateLimit) &&
    Object.values(data.forgeKinds).every((k) => k === 'gitea' || k === 'forgejo')
  );
}
