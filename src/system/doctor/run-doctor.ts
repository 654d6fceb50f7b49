import type { Context } from '../../context/context.js';
import { applyNetworkFields } from '../../http/proxy-settings.js';
import { configChecks } from './config-checks.js';
import { dirChecks } from './dir-checks.js';
import { deadAppImageEntriesCheck } from './foreign-checks.js';
import { launchChecks } from './launch-checks.js';
import { lockCheck } from './lock-check.js';
import { onlineChecks } from './online-checks.js';
import { certificateCheck } from './cert-checks.js';
import { proxyCheck } from './proxy-checks.js';
import { runtimeCheck, type RuntimeFacts } from './runtime-check.js';
import { scheduleCheck } from './schedule-checks.js';
import { stateChecks } from './state-checks.js';
import { systemPermissionCheck } from './system-perm-checks.js';
import { toolChecks } from './tool-checks.js';
import type { DoctorCheck } from './types.js';

/**
 * Every doctor check, in report order (`runtime` when the caller says which Node.js runs us). Read-only: no lock is taken and nothing is written (a
 * corrupt state file is reported, not moved aside).
 */
export async function runDoctor(
  ctx: Context,
  opts: { online: boolean; runtime?: RuntimeFacts | undefined },
): Promise<DoctorCheck[]> {
  const config = await configChecks(ctx);
  applyNetworkFields(ctx, config.global);
  const [dirs, tools, state, lock, launch, schedule, entries] = await Promise.all([
    dirChecks(ctx, config.ws, config.global),
    toolChecks(ctx, config.ws, config.global),
    stateChecks(ctx, config.ws),
    lockCheck(ctx),
    launchChecks(ctx, config.ws),
    scheduleCheck(ctx),
    deadAppImageEntriesCheck(ctx.paths.applicationsDir),
  ]);
  const [stateCheck, ...rest] = state;
  // Only the system layout promises that what it manages is root's alone.
  const perms =
    ctx.paths.layout === 'system' ? [await systemPermissionCheck(ctx, config.ws, config.global)] : [];
  const checks = [
    ...config.checks,
    ...dirs,
    ...perms,
    ...tools,
    ...(opts.runtime ? [runtimeCheck(opts.runtime, ctx.now())] : []),
    ...(stateCheck ? [stateCheck] : []),
    lock,
    ...rest,
    launch,
    entries,
    schedule,
    proxyCheck(ctx, config.global),
  ];
  if (opts.online) {
    checks.push(certificateCheck(ctx.http.ca.sources()));
    checks.push(...(await onlineChecks(ctx, config.ws, config.global)));
  }
  return checks;
}
