/**
 * Which launch fixes an AppImage needs on this host, and the desktop entry arguments and
 * environment that apply them. The user's own `desktop_exec_args` and `desktop_env` always win.
 */
import type { LaunchTraits } from '../appimage/launch-traits.js';
import { USERNS_SYSCTL, type HostLaunchConditions } from './launch-host.js';
import { ourName } from './desktop-names.js';

/** The fixes we know. */
export type LaunchFixId = 'no-sandbox' | 'extract-and-run';

/** One fix the app needs here, and whether the desktop entry carries it. */
export interface LaunchFix {
  id: LaunchFixId;
  /** Why it is needed, in one sentence. */
  reason: string;
  /**
   * `applied`: we added it; `user`: the recipe's own args/env already decide; `profile`: an AppArmor
   * profile of ours for the app is installed, so the sandbox works; `off`: launch_fixes is false.
   */
  state: 'applied' | 'user' | 'profile' | 'off';
}

/** The fixes and the Exec arguments / environment to write. */
export interface LaunchPlan {
  fixes: LaunchFix[];
  execArgs: string[];
  env: Record<string, string>;
}

/** The user's launch settings of one app. */
export interface UserLaunchSettings {
  enabled: boolean;
  execArgs: readonly string[];
  env: Readonly<Record<string, string>>;
  /** `/etc/apparmor.d/<apparmorProfileName(app)>` exists. */
  apparmorProfile: boolean;
}

const EXTRACT_AND_RUN = 'APPIMAGE_EXTRACT_AND_RUN';

/** Decides the fixes for one AppImage on one host. */
export function planLaunchFixes(
  traits: LaunchTraits,
  host: HostLaunchConditions,
  user: UserLaunchSettings,
): LaunchPlan {
  const fixes: LaunchFix[] = [];
  const ourArgs: string[] = [];
  const ourEnv: Record<string, string> = {};
  if (traits.electronMarker && host.usernsRestricted) {
    const state = user.apparmorProfile
      ? 'profile'
      : !user.enabled
        ? 'off'
        : user.execArgs.includes('--no-sandbox')
          ? 'user'
          : 'applied';
    if (state === 'applied') ourArgs.push('--no-sandbox');
    fixes.push({
      id: 'no-sandbox',
      reason: `${USERNS_SYSCTL}=1 stops Electron's sandbox (found ${traits.electronMarker}), so the app would abort at start`,
      state,
    });
  }
  if (traits.needsLibfuse2 && !host.libfuse2) {
    const state = !user.enabled ? 'off' : EXTRACT_AND_RUN in user.env ? 'user' : 'applied';
    if (state === 'applied') ourEnv[EXTRACT_AND_RUN] = '1';
    fixes.push({
      id: 'extract-and-run',
      reason: 'its runtime loads libfuse.so.2, which this system does not have, so it could not mount itself',
      state,
    });
  }
  return {
    fixes,
    // Ours first: the user's arguments keep their place right before the field codes.
    execArgs: [...ourArgs, ...user.execArgs],
    env: { ...ourEnv, ...user.env },
  };
}

/** The fixes a plan applies, as stored in state (to see when they change). */
export function appliedFixIds(fixes: readonly LaunchFix[]): LaunchFixId[] {
  return fixes.filter((f) => f.state === 'applied').map((f) => f.id);
}

/** A human note on one fix: what was done and how to undo or replace it. */
export function describeFix(app: string, fix: LaunchFix): string {
  if (fix.id === 'no-sandbox') {
    if (fix.state === 'profile')
      return `the AppArmor profile ${apparmorProfileName(app)} lets the sandbox start`;
    const what =
      fix.state === 'applied'
        ? 'added --no-sandbox to the desktop entry'
        : fix.state === 'user'
          ? 'desktop_exec_args already has --no-sandbox'
          : 'needs --no-sandbox, not added (launch_fixes: false)';
    return `${what}: ${fix.reason}; to keep the sandbox, install an AppArmor profile instead (\`appimage-keeper doctor\` prints it) and set launch_fixes: false for ${app}`;
  }
  const what =
    fix.state === 'applied'
      ? `set ${EXTRACT_AND_RUN}=1 in the desktop entry`
      : fix.state === 'user'
        ? `desktop_env already sets ${EXTRACT_AND_RUN}`
        : `needs ${EXTRACT_AND_RUN}=1, not set (launch_fixes: false)`;
  return `${what}: ${fix.reason}; installing libfuse2 (Debian/Ubuntu: libfuse2t64 or libfuse2; Fedora: fuse-libs) makes it unnecessary`;
}

/** The name of the AppArmor profile we suggest for an app (also its file name under /etc/apparmor.d). */
export function apparmorProfileName(app: string): string {
  return ourName(app);
}

/** The AppArmor profile that lets this app's sandbox create user namespaces, and how to install it. */
export function apparmorProfile(
  app: string,
  fileGlob: string,
): { name: string; text: string; commands: string[] } {
  const name = apparmorProfileName(app);
  const quoted = `"${fileGlob.replace(/(["\\])/g, '\\$1')}"`;
  const text = [
    `# Lets ${app}'s Chromium sandbox create user namespaces (${USERNS_SYSCTL}=1).`,
    'abi <abi/4.0>,',
    'include <tunables/global>',
    '',
    `profile ${name} ${quoted} flags=(unconfined) {`,
    '  userns,',
    '',
    `  include if exists <local/${name}>`,
    '}',
    '',
  ].join('\n');
  const path = `/etc/apparmor.d/${name}`;
  return {
    name,
    text,
    commands: [`sudo tee ${path} < ${name}.profile`, `sudo apparmor_parser -r ${path}`],
  };
}
