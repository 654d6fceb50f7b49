import { assertKnownNames, type Workspace } from '../config/workspace.js';
import type { StateStore } from '../state/store.js';

/**
 * Fails with UNKNOWN_APP (exit 2) unless every name has a recipe or an entry in state: commands
 * that act on state alone (`remove`, `unhold`) must still reach apps whose recipe is gone.
 */
export function assertKnownApps(names: readonly string[], ws: Workspace, store: StateStore): void {
  const known = [...new Set([...ws.apps.map((a) => a.name), ...store.appNames()])];
  assertKnownNames(names, known, ws.paths.appsDir);
}
