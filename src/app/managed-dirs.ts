import type { Workspace } from '../config/workspace.js';

/** Every storage_dir of the configuration (global and per recipe): the folders whose AppImages we manage. */
export function managedStorageDirs(ws: Workspace): string[] {
  return [
    ...new Set([ws.global.storage_dir, ...ws.apps.flatMap((a) => (a.ok ? [a.settings.storage_dir] : []))]),
  ];
}
