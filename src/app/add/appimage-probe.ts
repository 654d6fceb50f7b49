/**
 * Assets whose name ends in `AppImage` without the exact `.AppImage` extension (`…_AppImage`,
 * `….appimage`) are AppImages only if their first bytes say so: an ELF header carrying the
 * AppImage magic (`AI` and the type at offset 8). Read with one small Range request each.
 */
import type { HttpSettings } from '../../http/settings.js';
import { toKeeperError } from '../../core/errors.js';
import { request } from '../../http/http.js';
import type { ForgeAsset } from '../../sources/forge/release.js';

/** At most this many loosely named assets are probed per release. */
export const MAX_PROBED = 8;
const HEAD_BYTES = 16;

/** True for a name `add` takes as an AppImage without looking inside. */
export function isExactAppImageName(name: string): boolean {
  return name.endsWith('.AppImage');
}

/** True for a name that may be an AppImage and must be probed (`…_AppImage`, `….appimage`). */
export function isLooseAppImageName(name: string): boolean {
  return !isExactAppImageName(name) && /[-_.]appimage$/i.test(name);
}

/** Whether the asset's first bytes are an AppImage's; a note says why when they are not. */
export async function probeAppImage(
  http: HttpSettings,
  asset: ForgeAsset,
  signal: AbortSignal,
): Promise<{ ok: true } | { ok: false; why: string }> {
  try {
    const res = await request(http, asset.url, {
      phase: 'download',
      headers: { range: `bytes=0-${HEAD_BYTES - 1}` },
      maxBodyBytes: 64 * 1024,
      timeoutMs: 20_000,
      signal,
    });
    if (res.status !== 200 && res.status !== 206) return { ok: false, why: `HTTP ${res.status}` };
    const b = res.body;
    if (b.length < 11 || b.readUInt32BE(0) !== 0x7f454c46) return { ok: false, why: 'not an ELF file' };
    const isAppImage = b[8] === 0x41 && b[9] === 0x49 && (b[10] === 1 || b[10] === 2);
    return isAppImage ? { ok: true } : { ok: false, why: 'an ELF file without the AppImage magic' };
  } catch (err) {
    return { ok: false, why: toKeeperError(err).message };
  }
}
