import { readLaunchTraits } from '../appimage/launch-traits.js';
import { readAppImageMetadata } from '../appimage/metadata.js';
import type { AppSettings } from '../config/types.js';
import { describeError } from '../core/errors.js';
import { integrateDesktop, type DesktopPlacement } from '../install/desktop-integration.js';
import { retargetDesktopFile } from '../install/desktop-retarget.js';
import { appliedFixIds, describeFix, type LaunchPlan } from '../install/launch-fixes.js';
import type { IntegrationState, LaunchRecord } from '../state/types.js';
import { launchPlan, type IntegrateTarget } from './launch-refresh.js';

/** `X-AppImage-Version` of the AppImage's desktop entry, read in-process; undefined when absent or unreadable. */
export async function readEmbeddedVersion(path: string): Promise<string | undefined> {
  try {
    return (await readAppImageMetadata(path)).version;
  } catch {
    return undefined;
  }
}

/** What the integration step did: the record for state, warnings, and where the entry went. */
export interface IntegrateStepResult {
  record: IntegrationState | undefined;
  warnings: string[];
  /** Undefined when integration is off or failed. */
  placement?: DesktopPlacement | undefined;
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
    const plan = await launchPlan(settings, traits, target);
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
