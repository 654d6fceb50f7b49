/**
 * Routes a spawned CLI's requests for named public hosts to a loopback origin (the sim), through a
 * `node --import` preload. For real-world recipes that must stay unchanged (`direct` URLs on other
 * hosts cannot be pointed elsewhere by config.yml).
 */
import { fileURLToPath } from 'node:url';

const PRELOAD = fileURLToPath(new URL('./host-map-preload.mjs', import.meta.url));

/** Environment additions that send requests for each `host` (host[:port]) to `origin`. */
export function hostMapEnv(map: Record<string, string>): NodeJS.ProcessEnv {
  return { NODE_OPTIONS: `--import=${PRELOAD}`, AK_TEST_HOST_MAP: JSON.stringify(map) };
}
