/**
 * Owners who publish AppImages of other people's programs. Their builds can be fine, but the user
 * should know the file does not come from the program's authors (docs/catalogues.md lists them).
 */
import type { CatalogueEntry } from './types.js';

/** Known repackagers, lower case. */
export const REPACKAGERS: ReadonlySet<string> = new Set([
  'ivan-hc',
  'pkgforge-dev',
  'samueru-sama',
  'srevinsaju',
  'appimagecommunity',
]);

/** True when the build is a third party's: its repository owner repackages, or its catalogue says so. */
export function isRepackaged(entry: CatalogueEntry, repository: string | undefined): boolean {
  if (entry.repackaged) return true;
  const owner = repository
    ?.replace(/^https?:\/\/[^/]+\//, '')
    .split('/')[0]
    ?.toLowerCase();
  return owner !== undefined && REPACKAGERS.has(owner);
}
