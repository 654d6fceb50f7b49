import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { appFileName } from '../core/file-names.js';
import { assertNoSymlinkBelow, ensureDirBelow } from '../core/no-follow.js';
import { writeFileAtomic } from '../core/atomic-files.js';
import { MAX_STATE_FILE_BYTES, readLocalJson } from './local-json.js';
import { appStateSchema, releaseAssetSchema, signatureStateSchema, type Known } from './schema.js';

const INTENT_DIR = 'pending';

const shape = appStateSchema.shape;
const intentSchema = z.object({
  app: z.string(),
  installed: shape.installed.unwrap(),
  /** The replaced version's record with its kept path, when it is kept. */
  previous: shape.installed.unwrap().optional(),
  /** Temp name the kept version waits under until it is renamed to `previous.file`. */
  staged: z.string().startsWith('/').optional(),
  /** The replaced file, deleted after the commit when its name differs from the new one. */
  oldFile: z.string().startsWith('/').optional(),
  /** The signature pin after this install (a first signed install sets it), when there is one. */
  signature: signatureStateSchema.optional(),
  /** The release assets installed so far with this one (forge), for the replaced-asset guard. */
  releaseAssets: z.record(z.string(), releaseAssetSchema).optional(),
});

/**
 * What an install is about to commit, written before the rename that puts the new file in place
 * and removed once state records it. A run killed in between leaves it behind; the next run reads
 * it to finish the install (or to discard it when the rename never happened), so the previous
 * version survives a kill at any point.
 */
export type InstallIntent = Known<z.output<typeof intentSchema>>;

/** An app's intent file: its name only ever enters the path through the one file-name rule. */
export function intentFile(stateDir: string, app: string): string {
  return join(stateDir, INTENT_DIR, `${appFileName(app)}.json`);
}

/** True when any intent file may be pending (the folder lists one); false without the folder. */
export function hasIntents(stateDir: string): boolean {
  try {
    return readdirSync(join(stateDir, INTENT_DIR)).some((n) => n.endsWith('.json'));
  } catch (err) {
    // Unlistable but present: let recovery look app by app, as it did before this shortcut.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** Records an install's intent durably (atomic write, fsynced). */
export async function writeIntent(stateDir: string, intent: InstallIntent): Promise<void> {
  await ensureDirBelow(stateDir, join(stateDir, INTENT_DIR), 0o700);
  await writeFileAtomic(intentFile(stateDir, intent.app), `${JSON.stringify(intent)}\n`, {
    root: stateDir,
    mode: 0o600,
  });
}

/** The pending intent of an app, or undefined (none, or unreadable: then it is of no use). */
export function readIntent(stateDir: string, app: string): InstallIntent | undefined {
  try {
    const read = readLocalJson(intentFile(stateDir, app), MAX_STATE_FILE_BYTES);
    if (read.kind !== 'ok') return undefined;
    const parsed = intentSchema.safeParse(read.value);
    if (!parsed.success || parsed.data.app !== app) return undefined;
    const d = parsed.data;
    return {
      app: d.app,
      installed: d.installed,
      previous: d.previous,
      staged: d.staged,
      oldFile: d.oldFile,
      signature: d.signature,
      releaseAssets: d.releaseAssets,
    };
  } catch {
    return undefined;
  }
}

/** Removes an app's intent once state records the install (or it was discarded). */
export async function clearIntent(stateDir: string, app: string): Promise<void> {
  const file = intentFile(stateDir, app);
  await assertNoSymlinkBelow(stateDir, join(stateDir, INTENT_DIR));
  await rm(file, { force: true });
}
