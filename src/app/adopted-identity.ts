/**
 * An adopted file's provisional identity: we know its bytes, not which release they came from.
 * The first check compares its digest with the forge asset's: equal means up to date.
 */
import type { InstalledRecord } from '../state/types.js';
import type { Resolution } from '../sources/types.js';

const PREFIX = 'adopted:sha256:';

/** The identity recorded for an adopted file with this SHA-256. */
export function adoptedIdentity(sha256: string): string {
  return `${PREFIX}${sha256}`;
}

/** True when `installed` is an adopted file whose bytes are the resolved asset (digests equal). */
export function adoptedFileMatches(installed: InstalledRecord, resolution: Resolution): boolean {
  return (
    installed.identity.startsWith(PREFIX) &&
    resolution.sha256 !== undefined &&
    resolution.sha256 === installed.sha256
  );
}

/** True when an identity is still the provisional one `adopt` recorded. */
export function isAdoptedIdentity(identity: string): boolean {
  return identity.startsWith(PREFIX);
}
