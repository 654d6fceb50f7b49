import { KeeperError } from '../core/errors.js';
import { readElfInfo, type ElfInfo } from './elf.js';
import { openSquashfs, type SquashfsImage } from './squashfs/index.js';

/** An AppImage opened for reading its embedded file system (never executed). */
export interface OpenedAppImage {
  elf: ElfInfo;
  image: SquashfsImage;
}

/** Opens the SquashFS payload of a type-2 AppImage; type 1 (ISO 9660) and non-AppImages are refused. */
export async function openAppImage(path: string): Promise<OpenedAppImage> {
  const elf = await readElfInfo(path);
  if (elf.appImageType === 1) {
    throw new KeeperError(
      'APPIMAGE_TYPE1_UNSUPPORTED',
      `${path} is a type-1 AppImage (ISO 9660), which cannot be integrated`,
      {
        hint: 'type-1 AppImages are deprecated; ask upstream for a type-2 build, or set manage_desktop_files: false',
      },
    );
  }
  if (elf.appImageType !== 2) {
    throw new KeeperError('NOT_APPIMAGE', `${path} is an ELF file without the AppImage magic`, {
      hint: 'it may be a plain binary rather than an AppImage',
    });
  }
  return { elf, image: await openSquashfs(path, elf.payloadOffset) };
}
