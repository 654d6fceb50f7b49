import { basename } from 'node:path';
import type { AppState } from '../state/types.js';

/** What a claim is for: a desktop id (file name without `.desktop`) or an icon name. */
export type ClaimKind = 'desktop' | 'icon';

/** The icon name of an installed icon path (`.../apps/<name>.png` → `<name>`). */
export function iconNameOf(path: string): string {
  return basename(path).replace(/\.(png|svg)$/, '');
}

/**
 * Which app owns which desktop id and icon name. One instance serves a whole run: apps are
 * integrated concurrently, and `claim` checks and records in one synchronous step, so two apps can
 * never both take a name, whatever order their awaits resolve in. Names that state records for an
 * app stay that app's in later runs too.
 */
export class DesktopClaims {
  /** From state: name → apps whose recorded integration uses it. */
  private readonly recorded = new Map<string, Set<string>>();
  /** Taken in this run: name → app. */
  private readonly taken = new Map<string, string>();

  /** Claims seeded from every app's recorded integrations (the installed one and the kept previous one). */
  static fromState(apps: Readonly<Record<string, AppState>>): DesktopClaims {
    const claims = new DesktopClaims();
    for (const [app, state] of Object.entries(apps)) {
      for (const integ of [state.integration, state.previous?.integration]) {
        if (!integ) continue;
        claims.record('desktop', integ.desktopId, app);
        for (const icon of integ.icons) claims.record('icon', iconNameOf(icon), app);
      }
    }
    return claims;
  }

  private record(kind: ClaimKind, name: string, app: string): void {
    const key = `${kind}:${name}`;
    const apps = this.recorded.get(key) ?? new Set<string>();
    apps.add(app);
    this.recorded.set(key, apps);
  }

  /** The other app holding a name (taken in this run, or recorded in state), if any. */
  holder(kind: ClaimKind, name: string, app: string): string | undefined {
    const key = `${kind}:${name}`;
    const taken = this.taken.get(key);
    if (taken !== undefined) return taken === app ? undefined : taken;
    const recorded = this.recorded.get(key);
    if (!recorded || recorded.has(app)) return undefined;
    return [...recorded].sort()[0];
  }

  /** Takes a name for `app` unless another app holds it; true when `app` now holds it. */
  claim(kind: ClaimKind, name: string, app: string): boolean {
    if (this.holder(kind, name, app) !== undefined) return false;
    this.taken.set(`${kind}:${name}`, app);
    return true;
  }

  /** Gives a name back (after the file system showed it cannot be used). */
  release(kind: ClaimKind, name: string, app: string): void {
    const key = `${kind}:${name}`;
    if (this.taken.get(key) === app) this.taken.delete(key);
  }
}
