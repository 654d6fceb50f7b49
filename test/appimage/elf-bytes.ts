/** Test helpers: the smallest files that look like (or almost like) AppImages. */

/** An ELF64 little-endian header with optional AppImage magic, padded with `padding` bytes. */
export function elfBytes(
  options: { machine?: number; appImageType?: 0 | 1 | 2; padding?: number } = {},
): Buffer {
  const buf = Buffer.alloc(64 + (options.padding ?? 1024));
  buf.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1], 0);
  const type = options.appImageType ?? 2;
  if (type !== 0) buf.set([0x41, 0x49, type], 8);
  buf.writeUInt16LE(2, 16); // ET_EXEC
  buf.writeUInt16LE(options.machine ?? 62, 18);
  buf.writeUInt32LE(1, 20);
  buf.writeUInt16LE(64, 0x34); // e_ehsize
  for (let i = 64; i < buf.length; i++) buf[i] = (i * 31) & 0xff;
  return buf;
}

export const EM_X86_64 = 62;
export const EM_AARCH64 = 183;
