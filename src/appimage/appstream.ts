/**
 * The source URLs an AppImage's AppStream metadata (`usr/share/metainfo/*.xml`, formerly
 * `usr/share/appdata/`) names: `<url type="vcs-browser">` and `<url type="homepage">`, and the
 * component `<id>` (which catalogue entry the app may be).
 * Only those elements are read, with a bounded scan rather than an XML parser: the file is
 * hostile input, entities and DTDs are never expanded, and nothing else in it is used.
 */
import type { SquashfsImage } from './squashfs/index.js';

/** The URLs found, each the first of its kind. */
export interface AppStreamUrls {
  vcsBrowser?: string | undefined;
  homepage?: string | undefined;
  /** The component id, e.g. `md.obsidian.Obsidian` (reverse-DNS letters, digits, `.`, `_`, `-`). */
  id?: string | undefined;
}

const DIRS = ['usr/share/metainfo', 'usr/share/appdata'];
const MAX_FILES = 8;
const MAX_XML_BYTES = 256 << 10;
const MAX_URL_LENGTH = 2048;
const URL_ELEMENT = /<url\s+type\s*=\s*(["'])([a-z-]{1,32})\1\s*>([^<]{1,2048})<\/url\s*>/gi;

const ID_ELEMENT = /<id(?:\s[^>]{0,200})?>\s*([A-Za-z0-9._-]{1,255})\s*<\/id\s*>/i;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeText(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_m, name: string) => ENTITIES[name] ?? '').trim();
}

/** Extracts the vcs-browser and homepage URLs (http(s) only) and the id from one AppStream document. */
export function parseAppStreamUrls(xml: string): AppStreamUrls {
  const found: AppStreamUrls = {};
  for (const m of xml.matchAll(URL_ELEMENT)) {
    const kind = (m[2] ?? '').toLowerCase();
    const url = decodeText(m[3] ?? '');
    if (url.length > MAX_URL_LENGTH || !/^https?:\/\/[^\s]+$/i.test(url)) continue;
    if (kind === 'vcs-browser') found.vcsBrowser ??= url;
    else if (kind === 'homepage') found.homepage ??= url;
  }
  const id = ID_ELEMENT.exec(xml)?.[1];
  if (id) found.id = id;
  return found;
}

/** Reads the AppStream URLs of an open image; none when it has no metainfo. */
export async function readAppStreamUrls(image: SquashfsImage): Promise<AppStreamUrls> {
  const found: AppStreamUrls = {};
  for (const dir of DIRS) {
    const entries = await image.readdir(dir).catch(() => []);
    const xmls = entries
      .filter((e) => e.type !== 'dir' && e.name.endsWith('.xml'))
      .map((e) => e.name)
      .sort()
      .slice(0, MAX_FILES);
    for (const name of xmls) {
      const text = await image
        .readFile(`${dir}/${name}`, { maxBytes: MAX_XML_BYTES })
        .then((b) => b.toString('utf8'))
        .catch(() => '');
      const urls = parseAppStreamUrls(text);
      found.vcsBrowser ??= urls.vcsBrowser;
      found.homepage ??= urls.homepage;
      found.id ??= urls.id;
    }
  }
  return found;
}
