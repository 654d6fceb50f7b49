/**
 * `doctor`'s `runtime` check: which Node.js runs the tool (the one the standalone executable
 * embeds, or the machine's), and a warning once its release line is past end of life, when it
 * gets no more security fixes (src/core/node-lines.ts holds the dates).
 */
import { nodeLineStatus, supportedLtsLines } from '../../core/node-lines.js';
import { check, type DoctorCheck } from './types.js';

/** The Node.js running the tool. */
export interface RuntimeFacts {
  /** `process.version`, e.g. `v24.22.3`. */
  version: string;
  /** Inside the standalone executable (`node:sea`'s isSea()). */
  sea: boolean;
  execPath: string;
}

/** Names the runtime; warns when its line reached end of life on `now`. */
export function runtimeCheck(facts: RuntimeFacts, now: Date): DoctorCheck {
  const where = facts.sea ? 'embedded in the standalone executable' : facts.execPath;
  const name = `Node.js ${facts.version} (${where})`;
  const status = nodeLineStatus(facts.version, now);
  if (!status.pastEndOfLife) {
    const until = status.endOfLife ? `, supported until ${status.endOfLife}` : '';
    return check('runtime', 'ok', `${name}${until}`);
  }
  const since = status.endOfLife ? ` on ${status.endOfLife}` : '';
  return check(
    'runtime',
    'warn',
    `${name}: Node.js ${status.line} reached end of life${since} and gets no security fixes`,
    facts.sea
      ? 'run appimage-keeper self-update: newer executables embed a supported Node.js'
      : `run appimage-keeper on a supported Node.js line (${supportedLtsLines(now).join(', ')}), or use the standalone executable, which embeds a supported one`,
  );
}
