/** The hub's `GET /rate_limit`: the caller's budget, free of charge (as on GitHub), for `doctor --online`. */
import type { ApiRequest } from './api-request.js';
import { jsonError, jsonResponse } from './json-response.js';
import { budgetHeaders, type BudgetState, type RateBudgets } from './rate-limit.js';
import type { Outgoing } from './send-body.js';

/** GitHub's default budgets, reported when the sim enforces none. */
const DEFAULT_LIMIT = { anonymous: 60, authorized: 5000 };

/** Answers `{apiPrefix}/rate_limit`, or returns undefined for any other path. */
export function rateLimitResponse(
  req: ApiRequest,
  budgets: RateBudgets,
  apiPrefix: string,
): Outgoing | undefined {
  if (req.pathname !== `${apiPrefix}/rate_limit`) return undefined;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return jsonError(405, { message: 'Method Not Allowed' }, { allow: 'GET, HEAD' });
  }
  const limit = req.authorized ? DEFAULT_LIMIT.authorized : DEFAULT_LIMIT.anonymous;
  const state: BudgetState = budgets.peek(req.clientKey, req.authorized) ?? {
    limit,
    remaining: limit,
    used: 0,
    reset: Math.floor(Date.now() / 1000) + 3600,
  };
  const core = { limit: state.limit, remaining: state.remaining, reset: state.reset, used: state.used };
  return jsonResponse({ resources: { core }, rate: core }, req.headers, undefined, budgetHeaders(state));
}
