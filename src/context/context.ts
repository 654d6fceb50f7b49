import type { HttpSettings } from '../http/settings.js';
import type { Paths } from '../core/paths.js';
import type { EventSink } from '../core/events.js';

/**
 * Everything the core needs from the outside world, passed down explicitly so tests inject
 * their own environment, clock and event sink.
 */
export interface Context {
  env: NodeJS.ProcessEnv;
  paths: Paths;
  /** Current time; tests move it to open and close rate-limit windows. */
  now: () => Date;
  /** Node's `process.arch` of the host (x64, arm64, ...). */
  arch: string;
  emit: EventSink;
  /** Network settings every request of this run goes through (agents, timeouts). */
  http: HttpSettings;
}
