import { readAppImageMetadata } from '../appimage/metadata.js';
import type { AppSettings } from '../config/types.js';
import { describeError } from '../core/errors.js';
import type { DesktopClaims } from '../install/desktop-claims.js';
import { integrateDesktop, type DesktopPlacement } from '../install/desktop-integration.js';
import { retargetDesktopFile } from '../install/desktop-retarget.js';
import type { IntegrationState } from '../state/types.js';

/** `X-AppImage-Version` of the AppImage's desktop entry, read in-process; undefined when absent or unreadable. */
export async function readEmbeddedVersion(path: string): Promise<string | undefined> {
  try {
    return (await readAppImageMetadata(path)).version;
  } catch {
    return undefined;
  }
}

/** Where desktop entries go and which names other apps hold. */
export interface DesktopDirs {
  dataHome: string;
  dataDirs: readonly string[];
  claims: DesktopClaims;
}

/** What the integration step did: the record for state, warnings, and where the entry went. */
export interface IntegrateStepResult {
  record: IntegrationState | undefined;
  warnings: string[];
  /** Undefined when integration is off or failed. */
  placement?: DesktopPlacement | undefined;
}

/**
 * Installs the desktop entry and icon after the AppImage is in place. A failure never undoes the
 * install: the previous entry stays and the outcome carries a warning; a later run retries.
 */
export async function integrateStep(
  settings: AppSettings,
  appImagePath: string,
  symlink: string | undefined,
  previous: IntegrationState | undefined,
  dirs: DesktopDirs,
): Promise<IntegrateStepResult> {
  if (!settings.manage_desktop_files) return { record: previous, warnings: [] };
  try {
    const { record, warnings, placement } = await integrateDesktop({
      appName: settings.name,
      appImagePath,
      execPath: symlink ?? appImagePath,
      dataHome: dirs.dataHome,
      dataDirs: dirs.dataDirs,
      claims: dirs.claims,
      execArgs: settings.desktop_exec_args,
      env: settings.desktop_env,
      previous,
    });
    return { record, warnings, placement };
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
