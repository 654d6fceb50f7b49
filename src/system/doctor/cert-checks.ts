/**
 * `doctor --online`: which certificate sources https connections trust (node's roots, the system
 * store, SSL_CERT_FILE/SSL_CERT_DIR, `ca_file`), so a "not trusted" error can be checked against them.
 */
import type { CaSource } from '../../http/ca-store.js';
import { check, type DoctorCheck } from './types.js';

/** One line naming every source in use; a named source that could not be read is a warning (fail for ca_file). */
export function certificateCheck(sources: readonly CaSource[]): DoctorCheck {
  const used = sources
    .filter((s) => s.problem === undefined)
    .map((s) =>
      s.kind === 'node' ? `node's roots (${s.certificates})` : `${s.kind} ${s.path} (${s.certificates})`,
    );
  const broken = sources.filter((s) => s.problem !== undefined);
  const message = `certificates: ${used.join(', ')}`;
  if (broken.length === 0) return check('certificates', 'ok', message);
  const what = broken.map((s) => `${s.kind} ${s.path}: ${s.problem ?? ''}`).join('; ');
  return check(
    'certificates',
    broken.some((s) => s.kind === 'ca_file') ? 'fail' : 'warn',
    `${message}; not used: ${what}`,
    'point ca_file / SSL_CERT_FILE / SSL_CERT_DIR at a readable PEM file or folder (docs/network.md)',
  );
}
