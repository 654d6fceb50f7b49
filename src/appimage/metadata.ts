import { KeeperError } from '../core/errors.js';
import { chooseDesktopFile } from './desktop-choice.js';
import { getString, MAIN_GROUP, parseDesktopEntry, type DesktopEntry } from './desktop-entry.js';
import { findIcon, type FoundIcon } from './icon-choice.js';
import { openAppImage } from './open-appimage.js';
import type { SquashfsImage } from './squashfs/index.js';

/** What integration and the direct strategy need from an AppImage's root desktop file. */
export interface AppImageMetadata {
  /** File name of the chosen root `.desktop` file. */
  desktopFileName: string;
  desktopEntry: DesktopEntry;
  /** `X-AppImage-Version` of the main group, when present. */
  version: string | undefined;
  /** In-image path of the icon that integration would install. */
  iconPath?: string;
}

const MAX_DESKTOP_BYTES = 1 << 20;

/** Reads the chosen desktop entry and the icon it names from an open image. */
export async function readDesktopAndIcon(
  image: SquashfsImage,
  hints: string[],
  warnings: string[],
): Promise<{ desktopFileName: string; desktopEntry: DesktopEntry; icon: FoundIcon | undefined }> {
  const root = await image.listRoot();
  const desktopFileName = chooseDesktopFile(root, hints);
  if (!desktopFileName) {
    throw new KeeperError(
      'APPIMAGE_NO_DESKTOP_FILE',
      'the AppImage has no .desktop file in its root directory',
      {
        hint: 'set manage_desktop_files: false for this app',
      },
    );
  }
  const text = (await image.readFile(desktopFileName, { maxBytes: MAX_DESKTOP_BYTES })).toString('utf8');
  const desktopEntry = parseDesktopEntry(text);
  for (const issue of desktopEntry.issues) warnings.push(`${desktopFileName}: ${issue}`);
  const icon = await findIcon(image, getString(desktopEntry, MAIN_GROUP, 'Icon'), warnings);
  if (!icon) warnings.push(`no usable icon found in the AppImage for ${desktopFileName}`);
  return { desktopFileName, desktopEntry, icon };
}

/** Reads an AppImage's desktop metadata in-process (never runs it). */
export async function readAppImageMetadata(path: string, hints: string[] = []): Promise<AppImageMetadata> {
  const { image } = await openAppImage(path);
  try {
    const { desktopFileName, desktopEntry, icon } = await readDesktopAndIcon(image, [...hints, path], []);
    const version = getString(desktopEntry, MAIN_GROUP, 'X-AppImage-Version')?.trim();
    return {
      desktopFileName,
      desktopEntry,
      version: version ? version : undefined,
      ...(icon ? { iconPath: icon.imagePath } : {}),
    };
  } finally {
    await image.close();
  }
}
