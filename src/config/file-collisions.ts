/**
 * Which recipes would write the same file, symlink or desktop entry: equal names once made safe
 * for file names (case-insensitive), or `storage_dir` + `naming_format` patterns that can render
 * the same path for some versions (a format without `{name}` is fine while no other app's can).
 */
import { childPath } from '../core/child-path.js';
import { appFileName } from '../core/file-names.js';
import type { AppSettings } from './types.js';

/** The part of a workspace entry the check reads. */
export interface CollisionInput {
  name: string;
  file: string;
  ok: boolean;
  settings?: Pick<AppSettings, 'storage_dir' | 'naming_format'>;
}

/** One entry that collides, with the recipe files it collides with. */
export interface Collision {
  index: number;
  others: string[];
}

const VERSION = '\0';

/** Every entry that shares a name or a possible file with another, and the files of those others. */
export function findCollisions(apps: readonly CollisionInput[]): Collision[] {
  const names = apps.map((a) => appFileName(a.name).toLowerCase().replaceAll('+', '_'));
  const files = apps.map((a) => (a.ok && a.settings ? filePattern(a.name, a.settings) : undefined));
  const others = new Map<number, Set<number>>();
  const link = (i: number, j: number): void => {
    for (const [a, b] of [
      [i, j],
      [j, i],
    ] as const) {
      const set = others.get(a) ?? new Set<number>();
      set.add(b);
      others.set(a, set);
    }
  };
  // Equal keys are found through a map; only patterns with {version} need the pairwise test.
  const byKey = new Map<string, number[]>();
  apps.forEach((_, i) => {
    const keys = [`name:${names[i]}`];
    const file = files[i];
    if (file !== undefined) keys.push(`file:${file}`);
    for (const key of keys) byKey.set(key, [...(byKey.get(key) ?? []), i]);
  });
  for (const group of byKey.values())
    for (let a = 0; a < group.length; a++)
      for (let b = a + 1; b < group.length; b++) link(group[a] as number, group[b] as number);
  const withVersion = files.flatMap((f, i) => (f?.includes(VERSION) ? [i] : []));
  for (const i of withVersion) {
    files.forEach((f, j) => {
      if (j === i || f === undefined || f === files[i]) return;
      if (f.includes(VERSION) && j < i) return;
      if (patternsIntersect(files[i] as string, f)) link(i, j);
    });
  }
  return [...others.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, set]) => ({
      index,
      others: [...set].sort((x, y) => x - y).map((j) => apps[j]?.file ?? ''),
    }));
}

function filePattern(name: string, settings: Pick<AppSettings, 'storage_dir' | 'naming_format'>): string {
  const file = settings.naming_format
    .replaceAll('{name}', appFileName(name))
    .replaceAll('{version}', VERSION);
  return childPath(settings.storage_dir, file);
}

/**
 * True when some string matches both patterns, where VERSION stands for any non-empty text
 * (treated as any text: a safe over-approximation).
 */
export function patternsIntersect(a: string, b: string): boolean {
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    if (i === a.length && j === b.length) return true;
    const key = i * (b.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result = false;
    const ca = a[i];
    const cb = b[j];
    if (ca === VERSION) result = go(i + 1, j) || (j < b.length && go(i, j + 1));
    if (!result && cb === VERSION) result = go(i, j + 1) || (i < a.length && go(i + 1, j));
    if (!result && ca !== undefined && cb !== undefined && ca !== VERSION && cb !== VERSION && ca === cb)
      result = go(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return go(0, 0);
}
