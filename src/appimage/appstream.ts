/**
 * The source URLs an AppImage's AppStream metadata (`usr/share/metainfo/*.xml`, formerly
 * `usr/share/appdata/`) names: `<url type="vcs-browser">` and `<url type="homepage">`.
 * Only those elements are read, with a bounded scan rather than an XML parser: the file is
 * hostile input, entities and DTDs are never expanded, and nothing else in it is used.
 */
import type { SquashfsImage } from './squashfs/index.js';

/** The URLs found, each the first of its kind. */
export interface AppStreamUrls {
  vcsBrowser?: string | undefined;
  homepage?: string | undefined;
}

const DIRS = ['usr/share/metainfo', 'usr/share/appdata'];
const MAX_FILES = 8;
const MAX_XML_BYTES = 256 << 10;
const MAX_URL_LENGTH = 2048;
const URL_ELEMENT = /<url\s+type\s*=\s*(["'])([a-z-]{1,32})\1\s*>([^<]{1,2048})<\/url\s*>/gi;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeText(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_m, name: string) => ENTITIES[name] ?? '').trim();
}

/** Extracts the vcs-browser and homepage URLs from one AppStream document (http(s) only). */
export function parseAppStreamUrls(xml: string): AppStreamUrls {
  const found: AppStreamUrls = {};
  for (const m of xml.matchAll(URL_ELEMENT)) {
    const kind = (m[2] ?? '').toLowerCase();
    const url = decodeText(m[3] ?? '');
    if (url.length > MAX_URL_LENGTH || !/^https?:\/\/[^\s]+$/i.test(url)) continue;
    if (kind === 'vcs-browser') found.vcsBrowser ??= url;
    else if (kind === 'homepage') found.homepage ??= url;
  }
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
    }
  }
  return found;
}
