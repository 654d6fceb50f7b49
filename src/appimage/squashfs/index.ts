export { openSquashfs, SquashfsImage } from './image.js';
export type { ReadFileOptions, SquashfsDirent, SquashfsFileType, SquashfsStat } from './image.js';
export { compressorName } from './decompress.js';
export type { Superblock } from './superblock.js';
