/**
 * Whether systemd keeps this user's manager running after logout ("lingering"): without it a user
 * timer fires only while the user has a session. logind marks a lingering user with an empty file
 * named after the user; reading it needs no bus and no privilege.
 */
import { stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { hostRoot } from '../../install/launch-host.js';

/** The user the timer belongs to and whether lingering is on (undefined: no usable user name). */
export interface LingerState {
  user: string | undefined;
  enabled: boolean | undefined;
}

const LINGER_DIR = 'var/lib/systemd/linger';

/** Reads `/var/lib/systemd/linger/<user>` (below APPIMAGE_KEEPER_HOST_ROOT in tests). */
export async function lingerState(env: NodeJS.ProcessEnv): Promise<LingerState> {
  const user = userName(env);
  if (user === undefined) return { user, enabled: undefined };
  const enabled = await stat(join(hostRoot(env), LINGER_DIR, user)).then(
    () => true,
    (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' || err.code === 'ENOTDIR' ? false : undefined),
  );
  return { user, enabled };
}

// The account's own name first ($USER can be anything); a name that is not one file name is no name.
function userName(env: NodeJS.ProcessEnv): string | undefined {
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {
    name = env.USER ?? env.LOGNAME;
  }
  if (!name || name.length > 256 || name === '.' || name === '..' || /[/\0]/.test(name)) return undefined;
  return name;
}
