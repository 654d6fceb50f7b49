/** Every *.test.ts under the given files or folders, sorted, skipping fixtures. */
export function collectTests(roots: string[]): string[];
/** Why `file` needs a fresh build to run (a reason string), or undefined for a unit/in-process test. */
export function buildReason(file: string): string | undefined;
/** Why dist/ under `root` is out of date (missing, or older than a source), or undefined. */
export function staleReason(root: string): string | undefined;
