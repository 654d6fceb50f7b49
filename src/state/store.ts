import { join } from 'node:path';
import type { EventSink } from '../core/events.js';
import { writeFileAtomic } from '../core/atomic-files.js';
import { readJsonFile } from './json-file.js';
import { digestHolds, withDigest } from './state-digest.js';
import type { AppState, CacheData, CachedResponse, RateLimitWindow, RunRecord, StateData } from './types.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True when `v` is a state.json document of this schema version. */
export function isStateData(v: unknown): v is StateData {
  return (
    isObject(v) && v.schema === 1 && isObject(v.apps) && isObject(v.forgeKinds) && isObject(v.rateLimits)
  );
}

function isCacheData(v: unknown): v is CacheData {
  return isObject(v) && v.schema === 1 && isObject(v.responses);
}

function emptyState(): StateData {
  return { schema: 1, apps: {}, forgeKinds: {}, rateLimits: {} };
}

/**
 * The versioned state file (installed apps, rate-limit windows, forge detection) and the metadata
 * cache. Reads never write; `save` writes atomically and must only be called under the lock.
 */
function hasEntries(data: StateData): boolean {
  return [data.apps, data.rateLimits, data.forgeKinds].some((entries) => Object.keys(entries).length > 0);
}

export class StateStore {
  private cacheDirty = false;

  private constructor(
    readonly stateFile: string,
    readonly cacheFile: string,
    private data: StateData,
    private cache: CacheData,
    private readonly stateMode: number,
  ) {}

  /** Loads state and cache; corrupt files are moved aside with a warning, never silently emptied. */
  static async load(
    stateDir: string,
    now: Date,
    emit: EventSink,
    options: {
      readOnly?: boolean;
      /**
       * The system layout: state.json is readable by every user (0644) so that their `list` can
       * show the system's apps; the metadata cache stays root's (0600).
       */
      shared?: boolean;
    } = {},
  ): Promise<StateStore> {
    const stateFile = join(stateDir, 'state.json');
    const cacheFile = join(stateDir, 'cache.json');
    const state = await readJsonFile(stateFile, isStateData, now, options.readOnly);
    if (state.kind === 'corrupt') {
      emit({
        type: 'warning',
        code: 'STATE_CORRUPT',
        message: state.movedTo
          ? `state file ${stateFile} was unreadable (${state.reason}); moved it to ${state.movedTo} and started fresh: installed apps will be re-checked`
          : `state file ${stateFile} is unreadable (${state.reason}); the next update will move it aside`,
      });
    }
    if (state.kind === 'ok') delete (state.data as StateData & { digest?: unknown }).digest;
    // The schema (and zod with it) loads only for a file this tool did not write as it is now
    // (state-digest.ts): reading our own state, with or without installed apps, does not pay for it.
    if (state.kind === 'ok' && hasEntries(state.data) && !digestHolds(state.text)) {
      const { sanitizeState } = await import('./sanitize.js');
      for (const problem of sanitizeState(state.data, now)) {
        emit({
          type: 'warning',
          code: 'STATE_ENTRY_INVALID',
          message: `state file ${stateFile}: ${problem}`,
        });
      }
    }
    const cache = await readJsonFile(cacheFile, isCacheData, now, options.readOnly);
    if (cache.kind === 'corrupt') {
      emit({
        type: 'warning',
        code: 'CACHE_CORRUPT',
        message: `metadata cache ${cacheFile} was unreadable${cache.movedTo ? `; moved it to ${cache.movedTo}` : ''}`,
      });
    }
    return new StateStore(
      stateFile,
      cacheFile,
      state.kind === 'ok' ? state.data : emptyState(),
      cache.kind === 'ok' ? cache.data : { schema: 1, responses: {} },
      options.shared ? 0o644 : 0o600,
    );
  }

  /** A read-only snapshot of the whole state (for list, doctor, --json). */
  snapshot(): StateData {
    return structuredClone(this.data);
  }

  app(name: string): AppState | undefined {
    return this.data.apps[name];
  }

  appNames(): string[] {
    return Object.keys(this.data.apps).sort();
  }

  /** Replaces an app's state with the result of `update(current)`. */
  updateApp(name: string, strategy: string, update: (current: AppState) => AppState): AppState {
    const next = update(structuredClone(this.data.apps[name] ?? { strategy }));
    this.data.apps[name] = next;
    return next;
  }

  deleteApp(name: string): void {
    delete this.data.apps[name];
  }

  getForgeKind(origin: string): 'gitea' | 'forgejo' | undefined {
    return this.data.forgeKinds[origin];
  }

  setForgeKind(origin: string, kind: 'gitea' | 'forgejo'): void {
    this.data.forgeKinds[origin] = kind;
  }

  getRateLimit(key: string): RateLimitWindow | undefined {
    return this.data.rateLimits[key];
  }

  setRateLimit(key: string, window: RateLimitWindow): void {
    this.data.rateLimits[key] = window;
  }

  clearRateLimit(key: string): void {
    delete this.data.rateLimits[key];
  }

  /** Drops windows that ended before `now` so the file does not grow forever. */
  pruneRateLimits(now: Date): void {
    for (const [key, w] of Object.entries(this.data.rateLimits)) {
      if (Date.parse(w.until) <= now.getTime()) delete this.data.rateLimits[key];
    }
  }

  getCached(url: string): CachedResponse | undefined {
    return this.cache.responses[url];
  }

  setCached(url: string, entry: CachedResponse): void {
    this.cache.responses[url] = entry;
    this.cacheDirty = true;
  }

  setLastRun(run: RunRecord): void {
    this.data.lastRun = run;
  }

  /** Writes state (and the cache when it changed) atomically. */
  async save(): Promise<void> {
    const root = this.stateFileDir();
    await writeFileAtomic(this.stateFile, withDigest(JSON.stringify(this.data, null, 2)), {
      root,
      mode: this.stateMode,
    });
    if (this.cacheDirty) {
      await writeFileAtomic(this.cacheFile, JSON.stringify(this.cache), { root, mode: 0o600 });
      this.cacheDirty = false;
    }
  }

  private stateFileDir(): string {
    return this.stateFile.slice(0, this.stateFile.lastIndexOf('/'));
  }
}
