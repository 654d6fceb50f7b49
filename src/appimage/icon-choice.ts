import { KeeperError, describeError } from '../core/errors.js';
import { looksLikeSvg, pngSize } from './png-size.js';
import type { SquashfsImage } from './squashfs/index.js';

/** An icon found inside the image, with its bytes already read and checked. */
export type FoundIcon =
  | { format: 'png'; imagePath: string; data: Buffer; width: number; height: number }
  | { format: 'svg'; imagePath: string; data: Buffer };

const MAX_ICON_BYTES = 4 << 20;
const HICOLOR = 'usr/share/icons/hicolor';

/** The icon name from an `Icon=` value: a bare name, a file name, or (rarely) a path. */
export function iconBaseName(iconValue: string): string {
  const last = iconValue.split('/').pop() ?? '';
  return last.replace(/\.(png|svg|xpm)$/i, '');
}

/**
 * Finds the icon an AppImage means: `usr/share/icons/hicolor/{scalable,NxN}/apps/<name>` (a
 * scalable SVG first, else the largest PNG), then `<name>.svg`/`<name>.png` at the image root, then
 * `.DirIcon`. Symlinks are followed only inside the image; unusable candidates become warnings.
 */
export async function findIcon(
  image: SquashfsImage,
  iconValue: string | undefined,
  warnings: string[],
): Promise<FoundIcon | undefined> {
  const candidates: string[] = [];
  const name = iconValue ? iconBaseName(iconValue) : '';
  if (name && !name.startsWith('.')) {
    candidates.push(...(await hicolorCandidates(image, name, warnings)));
    if (iconValue && /\.(png|svg)$/i.test(iconValue) && !iconValue.includes('/')) candidates.push(iconValue);
    candidates.push(`${name}.svg`, `${name}.png`);
  }
  candidates.push('.DirIcon');
  for (const path of candidates) {
    const found = await tryIcon(image, path, warnings);
    if (found) return found;
  }
  return undefined;
}

async function hicolorCandidates(image: SquashfsImage, name: string, warnings: string[]): Promise<string[]> {
  let sizes: string[];
  try {
    sizes = (await image.readdir(HICOLOR))
      .filter((e) => e.type === 'dir' || e.type === 'symlink')
      .map((e) => e.name);
  } catch (err) {
    if (err instanceof KeeperError && (err.code === 'SQUASHFS_NOT_FOUND' || err.code === 'SQUASHFS_NOT_DIR'))
      return [];
    warnings.push(`cannot list ${HICOLOR}: ${describeError(err)}`);
    return [];
  }
  const pngs = sizes
    .map((dir) => ({ dir, m: /^(\d+)x(\d+)(?:@(\d+))?$/.exec(dir) }))
    .filter((s) => s.m)
    .map((s) => ({ dir: s.dir, side: Number(s.m?.[1]) * Number(s.m?.[3] ?? 1) }))
    .sort((a, b) => b.side - a.side || (a.dir < b.dir ? -1 : 1))
    .map((s) => `${HICOLOR}/${s.dir}/apps/${name}.png`);
  return [...(sizes.includes('scalable') ? [`${HICOLOR}/scalable/apps/${name}.svg`] : []), ...pngs];
}

async function tryIcon(
  image: SquashfsImage,
  path: string,
  warnings: string[],
): Promise<FoundIcon | undefined> {
  let data: Buffer;
  try {
    if (!(await image.exists(path))) return undefined;
    const st = await image.stat(path);
    if (st.type !== 'file') return undefined;
    data = await image.readFile(path, { maxBytes: MAX_ICON_BYTES });
  } catch (err) {
    if (err instanceof KeeperError && err.code === 'SQUASHFS_CORRUPT') throw err;
    warnings.push(`icon candidate ${path} skipped: ${describeError(err)}`);
    return undefined;
  }
  const size = pngSize(data);
  if (size) return { format: 'png', imagePath: path, data, ...size };
  if (looksLikeSvg(data)) return { format: 'svg', imagePath: path, data };
  warnings.push(`icon candidate ${path} is neither a PNG nor an SVG`);
  return undefined;
}
