/** The list of injected faults and the rule that picks one for a request. */
import type { Fault } from './types.js';

interface Entry {
  pattern: string | RegExp;
  fault: Fault;
  remaining: number;
}

function pathMatches(pattern: string | RegExp, pathWithQuery: string): boolean {
  if (typeof pattern === 'string') {
    const q = pathWithQuery.indexOf('?');
    const pathname = q === -1 ? pathWithQuery : pathWithQuery.slice(0, q);
    return pattern === pathWithQuery || pattern === pathname;
  }
  pattern.lastIndex = 0;
  return pattern.test(pathWithQuery);
}

/** Faults in registration order; the first one matching a request applies and uses up one of its `times`. */
export class FaultTable {
  private entries: Entry[] = [];

  /** Registers a fault for a path (exact, with or without query) or a RegExp tested on path+query. */
  add(pattern: string | RegExp, fault: Fault): void {
    this.entries.push({ pattern, fault, remaining: fault.times ?? Infinity });
  }

  /** Removes every fault. */
  clear(): void {
    this.entries = [];
  }

  /** The fault for this request, if any, consuming one application. */
  take(method: string, pathWithQuery: string): Fault | undefined {
    for (const entry of this.entries) {
      if (entry.remaining <= 0) continue;
      if (entry.fault.methods && !entry.fault.methods.some((m) => m.toUpperCase() === method)) continue;
      if (!pathMatches(entry.pattern, pathWithQuery)) continue;
      entry.remaining -= 1;
      return entry.fault;
    }
    return undefined;
  }
}
