const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_ICON_SIDE = 8192;

/** Width and height from a PNG's IHDR chunk, or undefined when the data is not a plausible PNG. */
export function pngSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.length < 24 || !data.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  if (data.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  const width = data.readUInt32BE(16);
  const height = data.readUInt32BE(20);
  if (width === 0 || height === 0 || width > MAX_ICON_SIDE || height > MAX_ICON_SIDE) return undefined;
  return { width, height };
}

/** True when the data looks like an SVG document (not gzip-compressed SVGZ). */
export function looksLikeSvg(data: Buffer): boolean {
  const head = data.subarray(0, 4096).toString('utf8');
  return /<svg[\s>]/.test(head);
}
