import { hubApiBase } from './hub-api-base.js';
import type { GlobalSettings } from './types.js';
import type { AppEntry } from './workspace.js';

/**
 * One warning per recipe whose hub API base differs from config.yml's while a shared token
 * exists: that token is not sent there, so its hub requests run unauthenticated.
 */
export function tokenScopeWarnings(apps: readonly AppEntry[], global: GlobalSettings): string[] {
  const warnings: string[] = [];
  for (const app of apps) {
    if (!app.ok || !app.settings.tokenWithheld) continue;
    warnings.push(
      `${app.file}: the hub API base ${hubApiBase(app.settings)} differs from ${hubApiBase(global)} ` +
        `(config.yml); the token from ${app.settings.tokenWithheld} is not sent there. ` +
        'Set hub_token in this recipe if that API needs one.',
    );
  }
  return warnings;
}
