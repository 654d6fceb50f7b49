import { ConfigError, type KeeperError } from '../core/errors.js';
import type { AppOutcome } from './outcome.js';

/** The `error` object of an outcome. */
export function errorInfo(err: KeeperError): NonNullable<AppOutcome['error']> {
  return {
    code: err.code,
    message: err.message,
    ...(err.hint ? { hint: err.hint } : {}),
    ...(err instanceof ConfigError && err.issues.length > 0 ? { issues: err.issues } : {}),
  };
}
