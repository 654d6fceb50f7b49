import { stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

/**
 * True when a user session bus is reachable: `DBUS_SESSION_BUS_ADDRESS` is set, or the socket
 * `$XDG_RUNTIME_DIR/bus` exists (systemd's user bus). Without one, `systemctl --user` and
 * `notify-send` cannot work, so callers skip them.
 */
export async function hasSessionBus(env: NodeJS.ProcessEnv): Promise<boolean> {
  if (env.DBUS_SESSION_BUS_ADDRESS?.trim()) return true;
  const runtime = env.XDG_RUNTIME_DIR;
  if (!runtime || !isAbsolute(runtime)) return false;
  return stat(join(runtime, 'bus')).then(
    (s) => s.isSocket(),
    () => false,
  );
}
