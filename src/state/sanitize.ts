import { appStateSchema, firstIssue, forgeKindSchema, rateLimitSchema } from './schema.js';
import type { AppState, SetAsideEntry, StateData } from './types.js';

/**
 * Checks every entry of a loaded state file against the schema. An invalid app entry is moved to
 * `setAside` (kept in the file for the user, ignored by every command) and an invalid rate-limit
 * window or forge detection is dropped; each yields one problem line for a warning. Nothing
 * invalid reaches the commands, so a damaged entry can neither crash `list` nor point a delete
 * anywhere.
 */
export function sanitizeState(data: StateData, now: Date): string[] {
  const problems: string[] = [];
  const apps: Record<string, AppState> = {};
  for (const [name, entry] of Object.entries(data.apps)) {
    const parsed = appStateSchema.safeParse(entry);
    if (parsed.success) {
      apps[name] = parsed.data;
      continue;
    }
    const reason = firstIssue(parsed.error);
    const aside: SetAsideEntry = { entry, reason, at: now.toISOString() };
    data.setAside = { ...data.setAside, [name]: aside };
    problems.push(`app ${JSON.stringify(name)}: ${reason}; its entry was set aside (state key setAside)`);
  }
  data.apps = apps;
  for (const [key, w] of Object.entries(data.rateLimits)) {
    if (rateLimitSchema.safeParse(w).success) continue;
    delete data.rateLimits[key];
    problems.push(`rate-limit window ${JSON.stringify(key)} is invalid; dropped`);
  }
  for (const [origin, kind] of Object.entries(data.forgeKinds)) {
    if (forgeKindSchema.safeParse(kind).success) continue;
    delete data.forgeKinds[origin];
    problems.push(`forge detection for ${JSON.stringify(origin)} is invalid; dropped`);
  }
  return problems;
}
