/** Severity of one doctor check: `fail` makes `doctor` exit 1, `warn` does not. */
export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One line of the doctor report. */
export interface DoctorCheck {
  id: string;
  status: CheckStatus;
  message: string;
  /** How to fix it; null when there is nothing to do. */
  hint: string | null;
}

/** Builds a check. */
export function check(id: string, status: CheckStatus, message: string, hint?: string): DoctorCheck {
  return { id, status, message, hint: hint ?? null };
}

/** The worst of several statuses. */
export function worst(statuses: readonly CheckStatus[]): CheckStatus {
  if (statuses.includes('fail')) return 'fail';
  if (statuses.includes('warn')) return 'warn';
  return 'ok';
}
