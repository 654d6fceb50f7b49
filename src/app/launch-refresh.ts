/**
 * The light half of desktop integration: where an entry goes, the launch fixes this host needs,
 * and the check an up-to-date app gets on every run. It loads no SquashFS reader and no desktop
 * writer until an entry must really be written (integrate-step.ts), so a run in which nothing
 * changed stays small.
 */
import type { LaunchTraits } from '../appimage/launch-traits.js';
import type { AppSettings } from '../config/types.js';
import type { DesktopClaims } from '../install/desktop-claims.js';
import {
  apparmorProfileName,
  appliedFixIds,
  planLaunchFixes,
  type LaunchPlan,
} from '../install/launch-fixes.js';
import {
  hasApparmorProfile,
  hostRoot,
  probeHost,
  type HostLaunchConditions,
} from '../install/launch-host.js';
import type { IntegrationState, LaunchRecord } from '../state/types.js';
import type { AppRun } from './app-run.js';
import type { IntegrateStepResult } from './integrate-step.js';

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
  /** The host's launch conditions, probed once per run (a dozen stats and ld.so.cache). */
  host: () => Promise<HostLaunchConditions>;
}

/** The integration target of `app` for the file at `appImagePath`, from the run's paths and claims. */
export function integrateTarget(
  app: AppRun,
  appImagePath: string,
  symlink: string | undefined,
): IntegrateTarget {
  const { ctx, run } = app;
  const root = hostRoot(ctx.env);
  return {
    appImagePath,
    symlink,
    previous: app.state?.integration,
    dataHome: ctx.paths.dataHome,
    dataDirs: ctx.paths.dataDirs,
    claims: run.desktopClaims,
    env: ctx.env,
    // The host does not change during a run; 50 up-to-date apps probed it 50 times (30 ms).
    host: () => {
      const key = `host-launch-conditions:${root}`;
      let facts = run.memo.get(key) as Promise<HostLaunchConditions> | undefined;
      if (!facts) {
        facts = probeHost(root);
        run.memo.set(key, facts);
      }
      return facts;
    },
  };
}

/** The launch fixes for `traits` on this host, under the app's settings. */
export async function launchPlan(
  settings: AppSettings,
  traits: LaunchTraits,
  target: IntegrateTarget,
): Promise<LaunchPlan> {
  const root = hostRoot(target.env);
  return planLaunchFixes(traits, await target.host(), {
    enabled: settings.launch_fixes,
    execArgs: settings.desktop_exec_args,
    env: settings.desktop_env,
    apparmorProfile: await hasApparmorProfile(root, apparmorProfileName(settings.name)),
  });
}

/**
 * For an app that is up to date: rewrites its desktop entry when the launch fixes this host needs
 * changed since it was written (libfuse2 installed, the AppArmor switch flipped, launch_fixes
 * toggled). Returns undefined when nothing changed; traits recorded at install are reused.
 */
export async function refreshLaunchFixes(
  settings: AppSettings,
  target: IntegrateTarget,
): Promise<IntegrateStepResult | undefined> {
  const integration = target.previous;
  if (!settings.manage_desktop_files || !integration) return undefined;
  const known = integration.launch;
  const traits: LaunchTraits | undefined = known
    ? { electronMarker: known.electron, needsLibfuse2: known.libfuse2 }
    : await import('../appimage/launch-traits.js')
        .then((m) => m.readLaunchTraits(target.appImagePath))
        .catch(() => undefined);
  if (!traits) return undefined;
  const want = appliedFixIds((await launchPlan(settings, traits, target)).fixes);
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
  const { integrateStep } = await import('./integrate-step.js');
  return integrateStep(settings, target);
}
