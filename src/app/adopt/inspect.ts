/** Reads everything `adopt` needs from an AppImage on disk, without running it. */
import { basename } from 'node:path';
import { readAppStreamUrls, type AppStreamUrls } from '../../appimage/appstream.js';
import { getString, MAIN_GROUP } from '../../appimage/desktop-entry.js';
import { readDesktopAndIcon } from '../../appimage/metadata.js';
import { openAppImage } from '../../appimage/open-appimage.js';
import { readElfInfo } from '../../appimage/elf.js';
import { readEmbeddedSignature } from '../../appimage/embedded-signature.js';
import { parseUpdateInfo, readUpdateInfoText, type UpdateInfo } from '../../appimage/update-info.js';
import { KeeperError } from '../../core/errors.js';

/** What an existing AppImage says about itself. */
export interface AdoptInspection {
  file: string;
  arch: string;
  appImageType: 1 | 2;
  updateInfo: UpdateInfo;
  signed: boolean;
  /** Desktop entry `Name` and `X-AppImage-Version`, when readable. */
  displayName?: string | undefined;
  version?: string | undefined;
  /** Desktop entry `StartupWMClass`, when set. */
  wmClass?: string | undefined;
  appStream: AppStreamUrls;
  warnings: string[];
}

/** Inspects one file; NOT_APPIMAGE (or an ELF error) when it is not an AppImage. */
export async function inspectAppImage(file: string): Promise<AdoptInspection> {
  const elf = await readElfInfo(file);
  if (elf.appImageType === 0) {
    throw new KeeperError('NOT_APPIMAGE', `${basename(file)} is an ELF file without the AppImage magic`, {
      hint: 'only AppImages can be adopted',
    });
  }
  const type = elf.appImageType;
  const updateInfo = parseUpdateInfo(await readUpdateInfoText(file, type));
  const signed = type === 2 && (await readEmbeddedSignature(file).catch(() => undefined)) !== undefined;
  const warnings: string[] = [];
  let displayName: string | undefined;
  let version: string | undefined;
  let wmClass: string | undefined;
  let appStream: AppStreamUrls = {};
  if (type === 2) {
    const { image } = await openAppImage(file);
    try {
      try {
        const { desktopEntry } = await readDesktopAndIcon(image, [file], warnings);
        displayName = getString(desktopEntry, MAIN_GROUP, 'Name')?.trim() || undefined;
        version = getString(desktopEntry, MAIN_GROUP, 'X-AppImage-Version')?.trim() || undefined;
        wmClass = getString(desktopEntry, MAIN_GROUP, 'StartupWMClass')?.trim() || undefined;
      } catch (err) {
        warnings.push(`no desktop entry read: ${(err as Error).message}`);
      }
      appStream = await readAppStreamUrls(image);
    } finally {
      await image.close();
    }
  }
  return {
    file,
    arch: elf.arch,
    appImageType: type,
    updateInfo,
    signed,
    displayName,
    version,
    wmClass,
    appStream,
    warnings,
  };
}
