import { ConfigError, describeError, type ConfigIssue, type KeeperError } from '../core/errors.js';
import { termMessage, termPath } from './terminal-text.js';

/** The JSON shape of an error: `{ code, message, hint?, issues? }`. */
export function errorJson(err: KeeperError): Record<string, unknown> {
  const json: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.hint) json.hint = err.hint;
  if (err instanceof ConfigError) json.issues = err.issues;
  else if (err.details) Object.assign(json, { details: err.details });
  return json;
}

/** One positioned config issue for a terminal: `file:line:col: message (hint)`, each part escaped. */
export function issueText(issue: ConfigIssue): string {
  const where = `${termPath(issue.file)}:${issue.line}:${issue.col}`;
  const hint = issue.hint ? ` (${termMessage(issue.hint)})` : '';
  return `${where}: ${termMessage(issue.message)}${hint}`;
}

/**
 * A problem's message for a terminal, escaped; a recipe's or config file's issues are listed one per
 * line (continuation lines indented by `indent`), the only message whose newlines are ours.
 */
export function problemText(
  message: string,
  issues: readonly ConfigIssue[] | undefined,
  indent = '  ',
): string {
  const [first] = issues ?? [];
  if (!issues || !first) return termMessage(message);
  if (issues.length === 1) return issueText(first);
  return [`${issues.length} problems:`, ...issues.map((i) => `${indent}${issueText(i)}`)].join('\n');
}

/** An error's message for a terminal, as `problemText`: a config error lists its issues. */
export function messageText(err: KeeperError, indent = '  '): string {
  return problemText(err.message, err instanceof ConfigError ? err.issues : undefined, indent);
}

/** One readable paragraph for stderr: message, cause chain and hint. */
export function errorText(err: KeeperError): string {
  const cause = err.cause === undefined ? '' : describeError(err.cause);
  const lines = [messageText(err)];
  if (cause && !err.message.includes(cause)) lines.push(`  cause: ${termMessage(cause)}`);
  if (err.hint) lines.push(`  hint: ${termMessage(err.hint)}`);
  return lines.join('\n');
}
