import { basename, dirname, join } from 'node:path';
import { resolvePaths, type Paths } from '../../config/paths.js';
import { unitBaseName } from './units.js';

/** Where the administrator's own units live (systemd.unit(5)); the system layout writes there. */
export const SYSTEM_UNIT_DIR = '/etc/systemd/system';

/** Where the unit files of this config dir live and what they are called. */
export interface UnitLocation {
  /** Whose manager runs the units (`system`: the run gets --system). */
  layout: Paths['layout'];
  /** `$XDG_CONFIG_HOME/systemd/user`, or /etc/systemd/system for the system layout */
  dir: string;
  base: string;
  servicePath: string;
  timerPath: string;
  serviceName: string;
  timerName: string;
  /** The config dir to pass with --config-dir, when it is not the default. */
  configDir: string | undefined;
}

/**
 * Each config dir gets its own pair of units (a non-default one is named after its state profile),
 * so two profiles never overwrite each other's timer.
 */
export function unitLocation(paths: Paths, env: NodeJS.ProcessEnv): UnitLocation {
  const defaults = resolvePaths(env, undefined, paths.layout);
  const custom = paths.configDir !== defaults.configDir;
  const base = unitBaseName(custom ? basename(paths.stateDir) : undefined);
  const dir =
    paths.layout === 'system' ? SYSTEM_UNIT_DIR : join(dirname(defaults.configDir), 'systemd', 'user');
  return {
    layout: paths.layout,
    dir,
    base,
    servicePath: join(dir, `${base}.service`),
    timerPath: join(dir, `${base}.timer`),
    serviceName: `${base}.service`,
    timerName: `${base}.timer`,
    configDir: custom ? paths.configDir : undefined,
  };
}
