import { resolvePaths, type Layout } from '../config/paths.js';
import type { Context } from '../context/context.js';
import type { EventSink } from '../core/events.js';
import { httpSettingsFor } from '../http/proxy-settings.js';

/** Global options every command receives. */
export interface GlobalOptions {
  configDir?: string | undefined;
  json: boolean;
  color: boolean;
  quiet: boolean;
  verbose: boolean;
  /** `system` with --system or APPIMAGE_KEEPER_SYSTEM=1 (checked for root before any command runs). */
  layout: Layout;
}

/** Builds the core Context for this process; its network settings are made once here per run. */
export function createContext(opts: GlobalOptions, env: NodeJS.ProcessEnv, emit: EventSink): Context {
  return {
    env,
    paths: resolvePaths(env, opts.configDir, opts.layout),
    now: () => new Date(),
    arch: process.arch,
    emit,
    http: httpSettingsFor(env),
  };
}
