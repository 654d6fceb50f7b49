/**
 * The checks of config fields whose rules are more than a type, called by the schema's
 * refinements (field-kit.ts); zod-free, so reading the field tables loads no zod.
 */
import { urlFieldProblem } from './url-field.js';

export const PROXY_PREFIX_WANTED = 'must be "all", an http(s) URL, or a list of http(s) URLs';

/** A repository's workflow file, as certificates name it after the host: owner/repo/.github/workflows/x.yml. */
export const PROVENANCE_SIGNER =
  /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+\/\.github\/workflows\/[A-Za-z0-9_.\-/]+\.ya?ml$/;

/** A full v4 OpenPGP fingerprint once normalised: 40 upper-case hex digits. */
export const FINGERPRINT = /^[0-9A-F]{40}$/;

/** A name `desktop_env` may set. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether a parsed URL names a repository (`/<owner>/<repo>`, or deeper for lab groups). */
export function isRepositoryUrl(url: URL): boolean {
  return url.pathname.split('/').filter(Boolean).length >= 2;
}

/** An issue of a field's value, at a path inside it. */
export interface FieldIssue {
  message: string;
  path: (string | number)[];
}

/** `hub_proxy_prefix` (a string or a list of strings) as the settings hold it, or its issues. */
export function readProxyPrefix(
  value: string | string[],
): { value: 'all' | string[] } | { issues: FieldIssue[] } {
  if (typeof value === 'string' && value.trim() === 'all') return { value: 'all' };
  const list = typeof value === 'string' ? [value] : value;
  const issues: FieldIssue[] = [];
  if (list.length === 0) issues.push({ message: 'must list at least one URL', path: [] });
  list.forEach((entry, i) => {
    const problem = urlFieldProblem(entry);
    if (!problem) return;
    let message = problem.hint ? `${problem.message}; ${problem.hint}` : problem.message;
    if (problem.code === 'URL_INVALID' && typeof value === 'string') message = PROXY_PREFIX_WANTED;
    issues.push({ message, path: typeof value === 'string' ? [] : [i] });
  });
  return issues.length ? { issues } : { value: list.map((entry) => entry.trim()) };
}
