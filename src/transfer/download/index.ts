// Public face of the downloader; everything else in this folder is internal.
export { download } from './download.js';
export { cleanStaleTemps, isStaleTemp, ownedTempPath } from '../../core/atomic-files.js';
export { createHostLimiter, type HostLimiter } from './host-limiter.js';
export { DownloadError } from './errors.js';
export type { ByteTap, DownloadRequest, DownloadResult } from './types.js';
