/**
 * One error family for the whole tool. The CLI boundary is the only place that turns these into
 * printed messages and exit codes; everything below it throws or returns them.
 */
import { dirname } from 'node:path';

/** Exit codes of the command contract (README "Exit code" table). */
export const ExitCode = {
  ok: 0,
  appFailed: 1,
  usage: 2,
  locked: 3,
  /** `check --exit-code`: an update is available for an app that is not held (as `git diff --exit-code`). */
  updatesAvailable: 10,
  /** The machine has no network: nothing was checked or changed; try again later (EX_TEMPFAIL). */
  tempFail: 75,
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
    // Out of space where no writer named its file: the path in the message (if any) still helps.
    const hint =
      code !== undefined && code in SPACE_MESSAGES
        ? 'free space on the file system named above (`df -h` lists them), then run the command again'
        : undefined;
    return new KeeperError(code ? `SYSTEM_${code}` : fallbackCode, err.message, {
      cause: err,
      ...(hint ? { hint } : {}),
    });
  }
  return new KeeperError(fallbackCode, String(err));
}

// The system errors of a file system that has no room left (blocks or inodes, or the user's quota).
const SPACE_MESSAGES: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
};

/**
 * A failed write of `file`: out of space, it becomes an error naming the file and its folder with a
 * hint to free space (a write to an open file descriptor reports no path: "ENOSPC: …, write");
 * any other error is returned unchanged, so callers still see its errno code.
 */
export function writeFailure(err: unknown, file: string): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const what = code === undefined ? undefined : SPACE_MESSAGES[code];
  if (what === undefined || err instanceof KeeperError) return err;
  const dir = dirname(file);
  return new KeeperError(`SYSTEM_${code}`, `${what} while writing ${file}; it was not changed`, {
    hint: `free space on the file system that holds ${dir} (\`df -h ${dir}\`), then run the command again`,
    cause: err,
    details: { file, dir },
  });
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
