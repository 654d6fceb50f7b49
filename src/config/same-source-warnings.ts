import type { AppEntry } from './workspace.js';

// A repository URL in one spelling: case, a trailing slash and `.git` do not make another one.
function repositoryKey(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
}

// What a recipe downloads, as a key equal for recipes that would fetch the same file; none for scripts.
function sourceKey(app: AppEntry): { key: string; text: string } | undefined {
  if (!app.ok) return undefined;
  const s = app.settings.strategy;
  if (s.strategy === 'forge') {
    const asset =
      s.asset_match_regex !== undefined
        ? `asset_match_regex ${s.asset_match_regex}`
        : `asset_match ${s.asset_match ?? '*'}`;
    // A pinned tag, a prerelease channel or another file inside an archive is another download.
    const rest = [s.tag ?? '', String(s.prerelease ?? false), s.inner_asset_match ?? ''].join('\0');
    return {
      key: `forge\0${repositoryKey(s.repository)}\0${asset}\0${rest}`,
      text: `${s.repository}, ${asset}`,
    };
  }
  if (s.strategy === 'direct') return { key: `direct\0${s.url.trim()}`, text: s.url };
  return undefined;
}

/**
 * One warning per group of recipes that follow the same release asset: each installs its own copy
 * and menu entry, so the menu shows two identical launchers. A warning, not an error: a second
 * recipe can be deliberate (other `desktop_exec_args`), and the names say which to remove.
 */
export function sameSourceWarnings(apps: readonly AppEntry[]): string[] {
  const groups = new Map<string, { text: string; apps: AppEntry[] }>();
  for (const app of apps) {
    const source = sourceKey(app);
    if (!source) continue;
    const group = groups.get(source.key) ?? { text: source.text, apps: [] };
    group.apps.push(app);
    groups.set(source.key, group);
  }
  return [...groups.values()]
    .filter((g) => g.apps.length > 1)
    .map(
      (g) =>
        `recipes ${g.apps.map((a) => `${a.name} (${a.file})`).join(' and ')} follow the same release asset ` +
        `(${g.text}): each installs its own copy and menu entry; remove all but one`,
    );
}
