/**
 * state.json written by hand, for tests that need installed apps without installing any (what
 * `list`, `doctor` and the start-up tests read).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** An `installed` record as state.json holds it, for the file at `file`. */
export function installedRecord(file: string, version = '1.2', extra: Record<string, unknown> = {}) {
  return {
    version,
    identity: version,
    file,
    url: 'https://example.org/app.AppImage',
    size: 1,
    sha256: '0',
    installedAt: '2026-01-01T00:00:00Z',
    ...extra,
  };
}

/** Writes `<stateDir>/state.json` holding these app entries and nothing else. */
export async function writeStateFile(stateDir: string, apps: Record<string, unknown>): Promise<void> {
  await mkdir(stateDir, { recursive: true });
  await writeFile(
    join(stateDir, 'state.json'),
    JSON.stringify({ schema: 1, apps, forgeKinds: {}, rateLimits: {} }),
  );
}
