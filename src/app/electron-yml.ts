/**
 * electron-builder's update metadata (`latest-linux.yml`, `latest-linux-arm64.yml`): the base64
 * SHA-512 of each file it lists. Read as bounded YAML (no aliases), never trusted for anything but
 * the digest of the asset it names.
 */
import { parse } from 'yaml';
import * as z from 'zod';

const Entry = z.object({
  url: z.string().optional(),
  path: z.string().optional(),
  sha512: z.string().optional(),
});
const Latest = z.object({
  files: z.array(Entry).max(1000).optional(),
  path: z.string().optional(),
  sha512: z.string().optional(),
});

/** True for the metadata file names electron-builder writes for Linux. */
export function isElectronLatestYml(name: string): boolean {
  return /^latest-linux(-[a-z0-9_]+)?\.yml$/i.test(name);
}

function hexOf(base64: string | undefined): string | undefined {
  if (!base64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64.trim())) return undefined;
  const bytes = Buffer.from(base64.trim(), 'base64');
  return bytes.length === 64 ? bytes.toString('hex') : undefined;
}

const baseName = (s: string): string => s.split('/').pop() ?? s;

/** The hex SHA-512 the metadata gives for `assetName`; undefined when it does not list it. */
export function sha512FromLatestYml(text: string, assetName: string): string | undefined {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 0, prettyErrors: false });
  } catch {
    return undefined;
  }
  const parsed = Latest.safeParse(doc);
  if (!parsed.success) return undefined;
  for (const f of parsed.data.files ?? []) {
    const name = f.url ?? f.path;
    if (name !== undefined && baseName(name) === assetName) return hexOf(f.sha512);
  }
  const top = parsed.data.path;
  return top !== undefined && baseName(top) === assetName ? hexOf(parsed.data.sha512) : undefined;
}
