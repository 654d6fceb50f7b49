/** Names of the standalone executable: what the build writes and what self-update looks for. */
import { appImageArch } from '../../sources/forge/arch.js';

/** `appimage-keeper-<version>-linux-<arch>`, arch as AppImages spell it (x86_64, aarch64, ...). */
export function standaloneFileName(version: string, nodeArch: string): string {
  return `appimage-keeper-${version}-linux-${appImageArch(nodeArch)}`;
}

/** Glob matching the standalone executable of any version for this architecture. */
export function standaloneAssetGlob(nodeArch: string): string {
  return `appimage-keeper-*-linux-${appImageArch(nodeArch)}`;
}

/** Suffix of the compressed executable (zstd), the asset self-update prefers when a release has it. */
export const COMPRESSED_SUFFIX = '.zst';

/** Whether an asset name is the compressed executable. */
export function isCompressedAsset(name: string): boolean {
  return name.endsWith(COMPRESSED_SUFFIX);
}
