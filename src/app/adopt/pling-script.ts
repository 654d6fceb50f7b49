/**
 * The resolver script written for `pling-v1-zsync|ID|PATTERN`: it asks the Pling OCS API for the
 * product's files (`{api}/content/data/{ID}`, XML with `downloadname<N>`/`downloadlink<N>`), takes
 * the first whose name matches PATTERN (a shell glob, as AppImageUpdate's fnmatch), and prints its
 * link and the version in its name. `PLING_API_URL` overrides the API base (a mirror, or a test's
 * local stub).
 */
import { KeeperError } from '../../core/errors.js';

/** Public Pling OCS v1 API. */
export const PLING_API = 'https://api.pling.com/ocs/v1';

// Both values are written into the script: only characters that need no quoting are accepted.
const SAFE_ID = /^\d{1,12}$/;
const SAFE_PATTERN = /^[A-Za-z0-9._+*?-]{1,200}$/;

/** The script text for one Pling product; PLING_UNSAFE for an id or pattern we will not embed. */
export function plingResolverScript(id: string, pattern: string): string {
  if (!SAFE_ID.test(id) || !SAFE_PATTERN.test(pattern)) {
    throw new KeeperError(
      'ADOPT_PLING_UNSAFE',
      `pling-v1-zsync id ${id} or pattern ${pattern} has unexpected characters`,
      {
        hint: 'write the resolver script yourself: appimage-keeper init --app NAME --strategy script',
      },
    );
  }
  return `#!/usr/bin/env bash
# Written by appimage-keeper adopt for pling-v1-zsync|${id}|${pattern}.
# Prints the download URL of the newest file matching the pattern, then its version.
set -euo pipefail
api="\${PLING_API_URL:-${PLING_API}}"
xml="$(curl -fsSL --max-time 60 --max-filesize 4194304 "$api/content/data/${id}")"
n=1
while :; do
  name="$(printf '%s' "$xml" | tr -d '\\n' | sed -n "s:.*<downloadname$n>\\([^<]*\\)</downloadname$n>.*:\\1:p")"
  [ -n "$name" ] || break
  if [[ "$name" == ${pattern} ]]; then
    link="$(printf '%s' "$xml" | tr -d '\\n' | sed -n "s:.*<downloadlink$n>\\([^<]*\\)</downloadlink$n>.*:\\1:p")"
    version="$(printf '%s' "$name" | grep -oE '[0-9]+(\\.[0-9]+)+' | head -n 1 || true)"
    printf '%s\\n%s\\n' "\${link//&amp;/\\&}" "\${version:-$name}"
    exit 0
  fi
  n=$((n + 1))
  [ "$n" -le 100 ] || break
done
echo "no file of Pling product ${id} matches ${pattern}" >&2
exit 1
`;
}
