/**
 * `doctor`'s launch-fix report: every app whose AppImage needs a fix on this host, whether its
 * desktop entry carries it, and for Electron apps the AppArmor profile that would keep the sandbox.
 */
import { join } from 'node:path';
import type { AppSettings } from '../../config/types.js';
import type { Workspace } from '../../config/workspace.js';
import type { Context } from '../../context/context.js';
import {
  apparmorProfile,
  apparmorProfileName,
  appliedFixIds,
  planLaunchFixes,
} from '../../install/launch-fixes.js';
import { hasApparmorProfile, hostRoot, probeHost } from '../../install/launch-host.js';
import { appFileName } from '../../core/file-names.js';
import { StateStore } from '../../state/store.js';
import { check, type DoctorCheck } from './types.js';

/** The AppImage file pattern of an app for its AppArmor profile: `{version}` becomes `*`. */
function fileGlob(settings: AppSettings): string {
  const name = settings.naming_format
    .replaceAll('{name}', appFileName(settings.name))
    .replaceAll('{version}', '*');
  return join(settings.storage_dir, name);
}

/** One check listing each app that needs a launch fix and whether it is applied. */
export async function launchChecks(ctx: Context, ws: Workspace | undefined): Promise<DoctorCheck> {
  if (!ws) return check('launch-fixes', 'warn', 'not checked: the configuration is invalid');
  const store = await StateStore.load(ctx.paths.stateDir, ctx.now(), () => undefined, {
    readOnly: true,
  }).catch(() => undefined);
  // An unreadable state file is the state check's to report.
  if (!store) return check('launch-fixes', 'warn', 'not checked: state is unreadable');
  const root = hostRoot(ctx.env);
  const host = await probeHost(root);
  const lines: string[] = [];
  const hints: string[] = [];
  let worst: 'ok' | 'warn' = 'ok';
  for (const entry of ws.apps) {
    const launch = entry.ok ? store.app(entry.name)?.integration?.launch : undefined;
    if (!entry.ok || !launch) continue;
    const s = entry.settings;
    const plan = planLaunchFixes({ electronMarker: launch.electron, needsLibfuse2: launch.libfuse2 }, host, {
      enabled: s.launch_fixes,
      execArgs: s.desktop_exec_args,
      env: s.desktop_env,
      apparmorProfile: await hasApparmorProfile(root, apparmorProfileName(s.name)),
    });
    const want = appliedFixIds(plan.fixes);
    const stale = launch.fixes.filter((id) => !(want as string[]).includes(id));
    const missing = want.filter((id) => !launch.fixes.includes(id));
    const parts = plan.fixes.map(
      (f) =>
        `${f.id} ${f.state === 'applied' && missing.includes(f.id) ? 'needed, not applied yet' : f.state}`,
    );
    parts.push(...stale.map((id) => `${id} applied but no longer needed`));
    if (parts.length === 0) continue;
    lines.push(`${s.name}: ${parts.join(', ')}`);
    if (missing.length || stale.length) {
      worst = 'warn';
      hints.push(`run \`appimage-keeper update ${s.name}\` to rewrite its desktop entry`);
    }
    const sandbox = plan.fixes.find((f) => f.id === 'no-sandbox');
    if (sandbox && (sandbox.state === 'applied' || sandbox.state === 'off')) {
      // Running Chromium without its sandbox is a real loss; say how to keep it.
      worst = 'warn';
      const p = apparmorProfile(s.name, fileGlob(s));
      hints.push(
        `to keep ${s.name}'s sandbox, save this as ${p.name}.profile:\n${p.text}then run: ${p.commands.join(' && ')}, and set launch_fixes: false in its recipe`,
      );
    }
  }
  if (lines.length === 0)
    return check('launch-fixes', 'ok', 'no installed app needs a launch fix on this system');
  return check('launch-fixes', worst, lines.join('; '), hints.length ? hints.join('\n') : undefined);
}
