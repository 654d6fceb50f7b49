import { hubApiBase } from '../../config/hub-api-base.js';
import { sourceFor } from '../../sources/index.js';
import { pickToken } from '../../config/settings.js';
import type { GlobalSettings } from '../../config/types.js';
import type { Workspace } from '../../config/workspace.js';
import type { Context } from '../../context/context.js';
import { describeError } from '../../core/errors.js';
import { request } from '../../http/http.js';
import { parseBoundedJson } from '../../http/json-limits.js';
import { check, type DoctorCheck } from './types.js';
import { timeText } from '../../core/time-text.js';

/** One hub API base and the token its requests would carry. */
interface HubTarget {
  base: string;
  token: { value: string; source: string } | undefined;
}

/** The hub API bases in use: the global one, plus any a recipe routes to with other settings. */
export function hubTargets(ctx: Context, ws: Workspace | undefined, global: GlobalSettings): HubTarget[] {
  const targets: HubTarget[] = [
    {
      base: hubApiBase(global),
      token: pickToken(ctx.env, ws?.secrets.hubToken, undefined, global.hub_token),
    },
  ];
  for (const app of ws?.apps ?? []) {
    if (!app.ok) continue;
    let base;
    try {
      base = sourceFor(app.settings).hubApiBase;
    } catch {
      continue;
    }
    if (base === undefined) continue;
    const token = app.settings.token;
    if (!targets.some((t) => t.base === base && t.token?.value === token?.value))
      targets.push({ base, token });
  }
  return targets;
}

interface Budget {
  limit: number;
  remaining: number;
  reset: number;
}

function budgetOf(body: unknown, headers: Record<string, string>): Budget | undefined {
  const core = (body as { resources?: { core?: Partial<Budget> }; rate?: Partial<Budget> } | null) ?? {};
  const b = core.resources?.core ?? core.rate;
  if (b && typeof b.limit === 'number' && typeof b.remaining === 'number' && typeof b.reset === 'number')
    return { limit: b.limit, remaining: b.remaining, reset: b.reset };
  const limit = Number(headers['x-ratelimit-limit']);
  const remaining = Number(headers['x-ratelimit-remaining']);
  const reset = Number(headers['x-ratelimit-reset']);
  if ([limit, remaining, reset].every(Number.isFinite) && headers['x-ratelimit-limit'] !== undefined)
    return { limit, remaining, reset };
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return parseBoundedJson(text, '');
  } catch {
    return undefined;
  }
}

/** API reachable, token accepted, rate-limit budget left, for one hub API base (`GET {api}/rate_limit`). */
async function probe(ctx: Context, target: HubTarget, suffix: string): Promise<DoctorCheck[]> {
  const url = `${target.base}/rate_limit`;
  const headers: Record<string, string> = { accept: 'application/vnd.github+json' };
  // The token goes only to the hub API base it belongs to; `request` drops it on any redirect out
  // of that base, even to another path on the same origin.
  if (target.token) headers.authorization = `Bearer ${target.token.value}`;
  const id = (name: string): string => `${name}${suffix}`;
  let res;
  try {
    res = await request(ctx.http, url, {
      headers,
      timeoutMs: 15_000,
      retries: 1,
      credentialsUnder: target.base,
    });
  } catch (err) {
    return [
      check(
        id('api'),
        'fail',
        `cannot reach ${target.base}: ${describeError(err)}`,
        'check the network, a proxy, or hub_release_api_url',
      ),
    ];
  }
  const checks: DoctorCheck[] = [];
  const body = parseJson(res.text);
  const budget = budgetOf(body, res.headers);
  if (res.status === 401) {
    checks.push(check(id('api'), 'ok', `${target.base} answered (HTTP 401)`));
    checks.push(
      check(
        id('token'),
        'fail',
        `the hub token from ${target.token?.source ?? 'nowhere'} was rejected (HTTP 401: bad or expired credentials)`,
        'create a new token (no scopes needed for public repositories) and put it in secrets.yml or HUB_TOKEN',
      ),
    );
    return checks;
  }
  if (res.status !== 200 && !(res.status === 403 && budget?.remaining === 0)) {
    return [
      check(
        id('api'),
        'fail',
        `${url} answered HTTP ${res.status}`,
        'is hub_release_api_url the API base (e.g. https://api.github.com)?',
      ),
    ];
  }
  checks.push(check(id('api'), 'ok', `${target.base} is reachable`));
  checks.push(
    target.token
      ? check(id('token'), 'ok', `the hub token from ${target.token.source} is accepted`)
      : check(
          id('token'),
          'ok',
          'no hub token: unauthenticated requests (the hub allows 60 an hour)',
          'for many apps, set hub_token in secrets.yml or HUB_TOKEN',
        ),
  );
  if (!budget) {
    checks.push(
      check(id('rate-limit'), 'warn', `${url} did not report a rate limit`, 'the API may not be the hub API'),
    );
    return checks;
  }
  const resetAt = timeText(new Date(budget.reset * 1000));
  const text = `${budget.remaining} of ${budget.limit} requests left, resets at ${resetAt}`;
  if (budget.remaining === 0)
    checks.push(
      check(
        id('rate-limit'),
        'warn',
        `rate limit exhausted: ${text}`,
        'hub apps are reported rate_limited until then; a token raises the limit',
      ),
    );
  else if (budget.remaining < budget.limit / 10)
    checks.push(
      check(id('rate-limit'), 'warn', `rate limit nearly spent: ${text}`, 'a token raises the limit'),
    );
  else checks.push(check(id('rate-limit'), 'ok', text));
  return checks;
}

/** `doctor --online`: reachability, token validity and the remaining budget of each hub API in use. */
export async function onlineChecks(
  ctx: Context,
  ws: Workspace | undefined,
  global: GlobalSettings,
): Promise<DoctorCheck[]> {
  const targets = hubTargets(ctx, ws, global);
  const used = new Set<string>();
  const suffixes = targets.map((t, i) => {
    let suffix = i === 0 ? '' : `:${new URL(t.base).host}`;
    // The same base with another token (a recipe's own hub_token) still needs distinct ids.
    if (used.has(suffix)) suffix = `${suffix}:${i}`;
    used.add(suffix);
    return suffix;
  });
  const results = await Promise.all(targets.map((t, i) => probe(ctx, t, suffixes[i] ?? `:${i}`)));
  return results.flat();
}
