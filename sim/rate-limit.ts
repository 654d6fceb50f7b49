/** Hub API request budgets and the rate-limit answers that faults inject. */
import type { OutgoingHttpHeaders } from 'node:http';
import type { Outgoing } from './send-body.js';
import type { RateLimitKind, RateLimitOptions } from './types.js';

/** State of one client's budget, as reported in x-ratelimit-* headers. */
export interface BudgetState {
  limit: number;
  remaining: number;
  used: number;
  /** Epoch seconds when the window ends. */
  reset: number;
}

interface Bucket {
  used: number;
  reset: number;
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Fixed-window budgets keyed by origin and client (anonymous, each token, the proxy). */
export class RateBudgets {
  private options: RateLimitOptions | null = null;
  private buckets = new Map<string, Bucket>();

  /** Enables (or with null disables) budgets; existing windows are dropped. */
  configure(options: RateLimitOptions | null): void {
    this.options = options;
    this.buckets.clear();
  }

  /** Refills every budget. */
  reset(): void {
    this.buckets.clear();
  }

  /** The budget for `key`, or undefined when budgets are off. */
  peek(key: string, authorized: boolean): BudgetState | undefined {
    if (!this.options) return undefined;
    const limit = authorized ? (this.options.authLimit ?? this.options.limit * 10) : this.options.limit;
    const bucket = this.bucket(key);
    return { limit, used: bucket.used, remaining: Math.max(0, limit - bucket.used), reset: bucket.reset };
  }

  /** Counts one request against `key`. */
  consume(key: string): void {
    if (this.options) this.bucket(key).used += 1;
  }

  private bucket(key: string): Bucket {
    const windowSeconds = this.options?.windowSeconds ?? 3600;
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.reset <= nowSeconds()) {
      bucket = { used: 0, reset: nowSeconds() + windowSeconds };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }
}

/** The x-ratelimit-* headers GitHub sends on every API response. */
export function budgetHeaders(state: BudgetState): OutgoingHttpHeaders {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(state.reset),
    'x-ratelimit-used': String(state.used),
    'x-ratelimit-resource': 'core',
  };
}

/** GitHub's answer once a budget is spent: 403 with remaining 0. */
export function budgetExhausted(state: BudgetState): Outgoing {
  return {
    status: 403,
    headers: { 'content-type': 'application/json; charset=utf-8', ...budgetHeaders(state) },
    body: Buffer.from(
      JSON.stringify({
        message: 'API rate limit exceeded for 127.0.0.1.',
        documentation_url: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting',
      }),
    ),
  };
}

/** The response of a `rateLimit` fault. */
export function rateLimitFault(kind: RateLimitKind, resetInSeconds: number): Outgoing {
  const reset = nowSeconds() + resetInSeconds;
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const body = (message: string): Buffer => Buffer.from(JSON.stringify({ message }));
  switch (kind) {
    case '403-remaining':
      return {
        status: 403,
        headers: { ...json, ...budgetHeaders({ limit: 60, remaining: 0, used: 60, reset }) },
        body: body('API rate limit exceeded for 127.0.0.1.'),
      };
    case '429-retry-after-seconds':
      return {
        status: 429,
        headers: { ...json, 'retry-after': String(resetInSeconds) },
        body: body('Too Many Requests'),
      };
    case '429-retry-after-date':
      return {
        status: 429,
        headers: { ...json, 'retry-after': new Date(reset * 1000).toUTCString() },
        body: body('Too Many Requests'),
      };
    case '429-ratelimit-reset':
      // GitLab's spelling: RateLimit-Reset is an epoch time, RateLimit-ResetTime the same as a date.
      return {
        status: 429,
        headers: {
          ...json,
          'ratelimit-limit': '60',
          'ratelimit-observed': '60',
          'ratelimit-remaining': '0',
          'ratelimit-reset': String(reset),
          'ratelimit-resettime': new Date(reset * 1000).toUTCString(),
        },
        body: body('Retry later'),
      };
  }
}
