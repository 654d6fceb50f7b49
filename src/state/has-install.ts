import type { AppState } from './types.js';

/**
 * Whether state records anything of the app on disk (file, kept previous version, symlink, desktop
 * entry). An entry with none of these (only checked, or removed) is a mark, not an install: never
 * an orphan, and `remove --orphans` forgets it once its recipe is gone.
 */
export function hasInstall(state: AppState | undefined): boolean {
  return !!(state?.installed || state?.previous || state?.symlink || state?.integration);
}
