import {
  getExec,
  getRaw,
  parseDesktopEntry,
  serializeDesktopEntry,
  setExec,
  setString,
} from '../appimage/desktop-entry.js';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../core/atomic-files.js';
import { readIfExists } from './desktop-fs.js';
import type { IntegrationRecord } from './desktop-integration.js';
import { markOf } from './desktop-target.js';
import { rewriteExec } from './desktop-rewrite.js';

/**
 * Points an entry we installed at a new executable, keeping every other line (arguments, env,
 * icon, version). Used when a new version installs but its own entry cannot be generated: the old
 * entry would otherwise launch a file that was just replaced. Returns whether the file changed;
 * a missing file or one without our mark for `appName` is left alone.
 */
export async function retargetDesktopFile(
  record: IntegrationRecord,
  appName: string,
  execPath: string,
): Promise<boolean> {
  const data = await readIfExists(record.desktopFile);
  if (data === undefined) return false;
  const text = data.toString('utf8');
  if (markOf(text) !== appName) return false;
  const entry = parseDesktopEntry(text);
  for (const group of entry.groups) {
    const exec = getExec(group);
    // Arguments and env already in the entry stay as they are: nothing is added twice.
    if (exec !== undefined) {
      setExec(group, rewriteExec(exec, { appName, execPath, execArgs: [], env: {}, iconName: undefined }));
    }
    if (getRaw(group, 'TryExec') !== undefined) setString(group, 'TryExec', execPath);
  }
  const updated = serializeDesktopEntry(entry);
  if (updated === text) return false;
  await writeFileAtomic(record.desktopFile, updated, { root: dirname(record.desktopFile) });
  return true;
}
