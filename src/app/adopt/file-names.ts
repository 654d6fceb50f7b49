/**
 * App names hidden in the file names other managers give AppImages: AppImageLauncher's
 * `Name_<md5>.AppImage`, Gear Lever's `gearlever_<name>_<hash>.appimage`, and plain
 * `Name-1.2.3-x86_64.AppImage`.
 */

const LAUNCHER = /^(.+)_[0-9a-f]{32}\.appimage$/i;
const GEAR_LEVER = /^gearlever_(.+)_[0-9a-f]{6,64}\.appimage$/i;

/** True when a directory entry looks like an AppImage by name (any of the layouts above). */
export function looksLikeAppImageName(name: string): boolean {
  return /\.appimage$/i.test(name);
}

/** Which manager named the file, when one did. */
export function managerOf(fileName: string): 'appimagelauncher' | 'gearlever' | undefined {
  if (GEAR_LEVER.test(fileName)) return 'gearlever';
  if (LAUNCHER.test(fileName)) return 'appimagelauncher';
  return undefined;
}

/**
 * The file's name before a manager renamed it: AppImageLauncher only adds `_<md5>`; Gear Lever's
 * name keeps nothing of it, so that one (like any other) is returned as it is.
 */
export function originalFileName(fileName: string): string {
  const launcher = GEAR_LEVER.test(fileName) ? undefined : LAUNCHER.exec(fileName);
  return launcher ? `${launcher[1]}${fileName.slice(-'.appimage'.length)}` : fileName;
}

/** The app's name as the file name spells it: manager decorations, version and architecture removed. */
export function nameFromFileName(fileName: string): string {
  const base =
    GEAR_LEVER.exec(fileName)?.[1] ?? LAUNCHER.exec(fileName)?.[1] ?? fileName.replace(/\.appimage$/i, '');
  return base
    .replace(/[-_.]?(x86[-_]64|amd64|aarch64|arm64|armhf|i[3-6]86)$/i, '')
    .replace(/[-_]v?\d+(\.\d+)*([-.+~][0-9A-Za-z.]+)?$/, '');
}
