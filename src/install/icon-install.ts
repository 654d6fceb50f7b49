import { join } from 'node:path';
import type { FoundIcon } from '../appimage/icon-choice.js';

/** The managed folder icons are written below (the hicolor theme folders in it must be real). */
export function iconsRoot(dataHome: string): string {
  return join(dataHome, 'icons');
}

/** Where an icon goes under `$XDG_DATA_HOME`: `hicolor/<W>x<H>/apps/<name>.png` or `scalable/apps/<name>.svg`. */
export function iconTargetPath(dataHome: string, icon: FoundIcon, iconName: string): string {
  const base = join(iconsRoot(dataHome), 'hicolor');
  return icon.format === 'png'
    ? join(base, `${icon.width}x${icon.height}`, 'apps', `${iconName}.png`)
    : join(base, 'scalable', 'apps', `${iconName}.svg`);
}

/** True when a path has the shape of an icon we install (used before deleting recorded paths). */
export function looksLikeOurIcon(path: string, prefix: string): boolean {
  const parts = path.split('/');
  const file = parts[parts.length - 1] ?? '';
  return (
    parts.length >= 5 &&
    parts[parts.length - 2] === 'apps' &&
    parts[parts.length - 4] === 'hicolor' &&
    file.startsWith(prefix) &&
    /\.(png|svg)$/.test(file)
  );
}
