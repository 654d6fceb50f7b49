import { ConfigError, describeError, type KeeperError } from '../core/errors.js';

/** The JSON shape of an error: `{ code, message, hint?, issues? }`. */
export function errorJson(err: KeeperError): Record<string, unknown> {
  const json: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.hint) json.hint = err.hint;
  if (err instanceof ConfigError) json.issues = err.issues;
  else if (err.details) Object.assign(json, { details: err.details });
  return json;
}

/** One readable paragraph for stderr: message, cause chain and hint. */
export function errorText(err: KeeperError): string {
  const cause = err.cause === undefined ? '' : describeError(err.cause);
  const lines = [err.message];
  if (cause && !err.message.includes(cause)) lines.push(`  cause: ${cause}`);
  if (err.hint) lines.push(`  hint: ${err.hint}`);
  return lines.join('\n');
}
