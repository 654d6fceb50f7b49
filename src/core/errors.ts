/**
 * One error family for the whole tool. The CLI boundary is the only place that turns these into
 * printed messages and exit codes; everything below it throws or returns them.
 */

/** Exit codes of the command contract (DESIGN 3). */
export const ExitCode = {
  ok: 0,
  appFailed: 1,
  usage: 2,
  locked: 3,
  /** Ctrl-C (SIGINT) stopped the run: 128 + 2, as shells report it. */
  interrupted: 130,
  /** SIGTERM stopped the run: 128 + 15. */
  terminated: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Options accepted by every KeeperError. */
export interface KeeperErrorOptions {
  hint?: string;
  cause?: unknown;
  /** Exit code this error maps to when it ends a whole command (default: 1). */
  exitCode?: ExitCode;
  /** Extra machine-readable data, shown in --json output. */
  details?: Record<string, unknown>;
}

/** Base error: a stable `code`, a human `message`, an optional `hint` and `cause`. */
export class KeeperError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly exitCode: ExitCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: string, message: string, options: KeeperErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KeeperError';
    this.code = code;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? ExitCode.appFailed;
    this.details = options.details;
  }
}

/** A bad flag, unknown app name or unreadable global configuration: exit 2. */
export class UsageError extends KeeperError {
  constructor(code: string, message: string, options: Omit<KeeperErrorOptions, 'exitCode'> = {}) {
    super(code, message, { ...options, exitCode: ExitCode.usage });
    this.name = 'UsageError';
  }
}

/** One problem found in a YAML file, positioned as file:line:col. */
export interface ConfigIssue {
  file: string;
  line: number;
  col: number;
  message: string;
  hint?: string | undefined;
}

/** Formats a config issue the way editors and terminals link it. */
export function formatIssue(issue: ConfigIssue): string {
  const where = `${issue.file}:${issue.line}:${issue.col}`;
  return issue.hint ? `${where}: ${issue.message} (${issue.hint})` : `${where}: ${issue.message}`;
}

/** One or more positioned problems in a config, secrets or recipe file. */
export class ConfigError extends KeeperError {
  readonly issues: ConfigIssue[];

  constructor(issues: ConfigIssue[], options: Omit<KeeperErrorOptions, 'details'> = {}) {
    const first = issues[0];
    const message =
      issues.length === 1 && first
        ? formatIssue(first)
        : `${issues.length} problems:\n${issues.map((i) => `  ${formatIssue(i)}`).join('\n')}`;
    super('CONFIG_INVALID', message, { ...options, details: { issues } });
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

/** Another run holds the lock: exit 3. */
export class LockedError extends KeeperError {
  constructor(message: string, options: Omit<KeeperErrorOptions, 'exitCode'> = {}) {
    super('LOCKED', message, { ...options, exitCode: ExitCode.locked });
    this.name = 'LockedError';
  }
}

/** Normalises anything thrown into a KeeperError so callers handle one shape. */
export function toKeeperError(err: unknown, fallbackCode = 'INTERNAL'): KeeperError {
  if (err instanceof KeeperError) return err;
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return new KeeperError(code ? `SYSTEM_${code}` : fallbackCode, err.message, { cause: err });
  }
  return new KeeperError(fallbackCode, String(err));
}

/** Short text of an error and its causes, for one-line reports. */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur !== undefined && cur !== null && depth < 4; depth++) {
    const msg = cur instanceof Error ? cur.message : typeof cur === 'string' ? cur : JSON.stringify(cur);
    if (msg && !parts.some((p) => p.includes(msg))) parts.push(msg);
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return parts.join(': ');
}
