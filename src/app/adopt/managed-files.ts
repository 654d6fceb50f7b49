/** The files state records as installed, by real path, so `adopt` recognises what we already manage. */
import { realpath } from 'node:fs/promises';
import type { StateStore } from '../../state/store.js';

/** Real path of each app's installed file → the app's name (files that are gone are left out). */
export async function managedFiles(store: StateStore): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of store.appNames()) {
    const file = store.app(name)?.installed?.file;
    if (!file) continue;
    const real = await realpath(file).catch(() => undefined);
    if (real !== undefined && !out.has(real)) out.set(real, name);
  }
  return out;
}
