/**
 * The last check before a new executable replaces the running one: it must start and answer
 * `--version` with the release's version within 5 s (probeVersion kills it after that). A file
 * that passes every byte check but cannot run here (a truncated build, another program, a build
 * for a newer glibc) would otherwise leave the user without a working tool.
 */
import { KeeperError } from '../../core/errors.js';
import { PROBE_TIMEOUT_MS, probeVersion } from '../schedule/probe-version.js';

/** Runs `file --version` and requires exactly `version`; throws SELF_UPDATE_SMOKE_FAILED. */
export async function smokeTest(file: string, version: string, env: NodeJS.ProcessEnv): Promise<void> {
  const started = Date.now();
  const probe = await probeVersion([file], env);
  if (probe.ok && probe.version === version) return;
  const said = probe.ok
    ? `it answered --version with ${JSON.stringify(probe.version)}`
    : Date.now() - started >= PROBE_TIMEOUT_MS
      ? `it did not finish within ${PROBE_TIMEOUT_MS / 1000} s and was killed`
      : probe.detail;
  throw new KeeperError(
    'SELF_UPDATE_SMOKE_FAILED',
    `the new executable did not answer --version with ${version}: ${said}`,
    {
      hint: 'the current executable was kept; the release asset does not run on this machine or is not that version',
      details: { expected: version, answer: probe.ok ? probe.version : null },
    },
  );
}
