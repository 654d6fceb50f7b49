/** Runs `fn` once a slot for the URL's host is free; at most `perHost` run at once per host. */
export type HostLimiter = <T>(url: string, fn: () => Promise<T>) => Promise<T>;

interface HostQueue {
  active: number;
  waiting: (() => void)[];
}

/** Creates a per-host concurrency limiter, so parallel downloads of several apps share a host politely. */
export function createHostLimiter(perHost: number): HostLimiter {
  const limit = Math.max(1, Math.floor(perHost));
  const hosts = new Map<string, HostQueue>();

  const release = (host: string, queue: HostQueue): void => {
    const next = queue.waiting.shift();
    if (next) {
      next();
      return;
    }
    queue.active--;
    if (queue.active === 0) hosts.delete(host);
  };

  return async <T>(url: string, fn: () => Promise<T>): Promise<T> => {
    const host = new URL(url).host.toLowerCase();
    let queue = hosts.get(host);
    if (!queue) {
      queue = { active: 0, waiting: [] };
      hosts.set(host, queue);
    }
    if (queue.active < limit) {
      queue.active++;
    } else {
      const q = queue;
      // The slot is handed over by release(): `active` stays the same.
      await new Promise<void>((resolve) => q.waiting.push(resolve));
    }
    const q = queue;
    try {
      return await fn();
    } finally {
      release(host, q);
    }
  };
}
