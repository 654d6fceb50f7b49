import { readLaunchTraits, type LaunchTraits } from '../appimage/launch-traits.js';
import { readAppImageMetadata } from '../appimage/metadata.js';
import type { AppSettings } from '../config/types.js';
import { describeError } from '../core/errors.js';
import type { DesktopClaims } from '../install/desktop-claims.js';
import { integrateDesktop, type DesktopPlacement } from '../install/desktop-integration.js';
import { retargetDesktopFile } from '../install/desktop-retarget.js';
import {
  apparmorProfileName,
  appliedFixIds,
  describeFix,
  planLaunchFixes,
  type LaunchPlan,
} from '../install/launch-fixes.js';
import { hasApparmorProfile, hostRoot, probeHost } from '../install/launch-host.js';
import type { IntegrationState, LaunchRecord } from '../state/types.js';
import type { AppRun } from './app-run.js';

/** `X-AppImage-Version` of the AppImage's desktop entry, read in-process; undefined when absent or unreadable. */
export async function readEmbeddedVersion(path: string): Promise<string | undefined> {
  try {
    return (await readAppImageMetadata(path)).version;
  } catch {
    return undefined;
  }
}

/** Where the desktop entry goes and what the host looks like. */
export interface IntegrateTarget {
  appImagePath: string;
  symlink: string | undefined;
  previous: IntegrationState | undefined;
  dataHome: string;
  /** `$XDG_DATA_DIRS`: an upstream desktop id the system provides is not used. */
  dataDirs: readonly string[];
  /** Desktop ids and icon names held by apps (the run's). */
  claims: DesktopClaims;
  /** The run's environment (APPIMAGE_KEEPER_HOST_ROOT for host facts). */
  env: NodeJS.ProcessEnv;
}

/** The integration target of `app` for the file at `appImagePath`, from the run's paths and claims. */
export function integrateTarget(
  app: AppRun,
  appImagePath: string,
  symlink: string | undefined,
): IntegrateTarget {
  const { ctx } = app;
  return {
    appImagePath,
    symlink,
    previous: app.state?.integration,
    dataHome: ctx.paths.dataHome,
    dataDirs: ctx.paths.dataDirs,
    claims: app.run.desktopClaims,
    env: ctx.env,
  };
}

/** What the integration step did: the record for state, warnings, and where the entry went. */
export interface IntegrateStepResult {
  record: IntegrationState | undefined;
  warnings: string[];
  /** Undefined when integration is off or failed. */
  placement?: DesktopPlacement | undefined;
}

/** The launch fixes for `traits` on this host, under the app's settings. */
async function launchPlan(
  settings: AppSettings,
  traits: LaunchTraits,
  env: NodeJS.ProcessEnv,
): Promise<LaunchPlan> {
  const root = hostRoot(env);
  return planLaunchFixes(traits, await probeHost(root), {
    enabled: settings.launch_fixes,
    execArgs: settings.desktop_exec_args,
    env: settings.desktop_env,
    apparmorProfile: await hasApparmorProfile(root, apparmorProfileName(settings.name)),
  });
}

/** Notes for the outcome when the fixes an entry carries changed (and once for a fix left off). */
function fixNotes(settings: AppSettings, plan: LaunchPlan, before: LaunchRecord | undefined): string[] {
  const had = new Set(before?.fixes ?? []);
  const now = new Set<string>(appliedFixIds(plan.fixes));
  const notes = plan.fixes
    .filter((f) => (f.state === 'applied' ? !had.has(f.id) : before === undefined))
    .map((f) => `launch fix: ${describeFix(settings.name, f)}`);
  for (const id of had) {
    if (!now.has(id))
      notes.push(`launch fix: removed ${id}; this system no longer needs it for ${settings.name}`);
  }
  return notes;
}

/**
 * Installs the desktop entry and icon after the AppImage is in place, with the launch fixes this
 * host needs. A failure never undoes the install: the previous entry stays and the outcome carries a
 * warning; a later run retries.
 */
export async function integrateStep(
  settings: AppSettings,
  target: IntegrateTarget,
): Promise<IntegrateStepResult> {
  const { appImagePath, symlink, previous } = target;
  if (!settings.manage_desktop_files) return { record: previous, warnings: [] };
  try {
    const traits = await readLaunchTraits(appImagePath);
    const plan = await launchPlan(settings, traits, target.env);
    const { record, warnings, placement } = await integrateDesktop({
      appName: settings.name,
      appImagePath,
      execPath: symlink ?? appImagePath,
      dataHome: target.dataHome,
      dataDirs: target.dataDirs,
      claims: target.claims,
      execArgs: plan.execArgs,
      env: plan.env,
      previous,
    });
    const launch: LaunchRecord = {
      ...(traits.electronMarker ? { electron: traits.electronMarker } : {}),
      libfuse2: traits.needsLibfuse2,
      fixes: appliedFixIds(plan.fixes),
    };
    // No entry (the AppImage opted out, or is not an application): no launch fixes to record.
    if (!record) return { record: undefined, warnings, placement };
    return {
      record: { ...record, launch },
      warnings: [...fixNotes(settings, plan, previous?.launch), ...warnings],
      placement,
    };
  } catch (err) {
    const warnings = [`desktop integration failed, kept the previous entry: ${describeError(err)}`];
    if (previous) {
      // The kept entry still names the old file, which a versioned naming_format just removed.
      await retargetDesktopFile(previous, settings.name, symlink ?? appImagePath).catch((e: unknown) =>
        warnings.push(`could not point ${previous.desktopFile} at the new file: ${describeError(e)}`),
      );
    }
    return { record: previous, warnings };
  }
}

/**
 * For an app that is up to date: rewrites its desktop entry when the launch fixes this host needs
 * changed since it was written (libfuse2 installed, the AppArmor switch flipped, launch_fixes
 * toggled). Returns undefined when nothing changed; traits recorded at install are reused.
 */
export async function refreshLaunchFixes(
  settings: AppSettings,
  target: IntegrateTarget & { previous: IntegrationState | undefined },
): Promise<IntegrateStepResult | undefined> {
  const integration = target.previous;
  if (!settings.manage_desktop_files || !integration) return undefined;
  const known = integration.launch;
  const traits: LaunchTraits | undefined = known
    ? { electronMarker: known.electron, needsLibfuse2: known.libfuse2 }
    : await readLaunchTraits(target.appImagePath).catch(() => undefined);
  if (!traits) return undefined;
  const want = appliedFixIds((await launchPlan(settings, traits, target.env)).fixes);
  const have = known?.fixes ?? [];
  if (want.length === have.length && want.every((id) => have.includes(id))) {
    if (known) return undefined;
    // Installed before launch fixes existed and needing none: remember the traits, write nothing.
    const launch: LaunchRecord = {
      ...(traits.electronMarker ? { electron: traits.electronMarker } : {}),
      libfuse2: traits.needsLibfuse2,
      fixes: [],
    };
    return { record: { ...integration, launch }, warnings: [] };
  }
  return integrateStep(settings, target);
}
