/**
 * What people paste into `add`, made a URL: `owner/repo` (the hub), `git@host:owner/repo.git`
 * (https on that host), and a release download URL (`…/releases/download/TAG/FILE`), which names
 * the repository and the file whose pattern the recipe should follow, not a pinned download.
 */
import { KeeperError } from '../../core/errors.js';

/** The URL to add and, for a release download URL, the tag and file it named. */
export interface CopiedUrl {
  url: string;
  download?: { tag: string; file: string } | undefined;
}

const OWNER_REPO = /^([A-Za-z0-9][A-Za-z0-9_.-]{0,99})\/([A-Za-z0-9_.-]{1,100})$/;
const SCP_LIKE = /^[A-Za-z0-9_.-]+@([A-Za-z0-9.-]+(?::\d+)?):\/?([^\s:]+?)(?:\.git)?\/?$/;

/** Reads what was pasted; ADD_URL_INVALID (with the accepted forms) when it is none of them. */
export function readCopiedUrl(input: string, hubWebUrl: string | undefined): CopiedUrl {
  const text = input.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return fromHttp(text);
  const ownerRepo = OWNER_REPO.exec(text);
  // `.` and `..` are path steps, not names: a URL would resolve them away.
  if (ownerRepo && !text.split('/').some((s) => /^\.+$/.test(s.replace(/\.git$/, '')))) {
    const base = (hubWebUrl ?? 'https://github.com').replace(/\/+$/, '');
    return { url: `${base}/${ownerRepo[1]}/${ownerRepo[2]?.replace(/\.git$/, '')}` };
  }
  const scp = SCP_LIKE.exec(text);
  if (scp) return { url: `https://${scp[1]?.replace(/:\d+$/, '')}/${scp[2]}` };
  throw new KeeperError('ADD_URL_INVALID', `${JSON.stringify(text.slice(0, 200))} is not a URL`, {
    hint: 'give https://host/owner/repo, owner/repo (on the hub), git@host:owner/repo.git, or a download URL',
    exitCode: 2,
  });
}

// `https://host/owner/repo/releases/download/TAG/FILE` (hub, Gitea/Forgejo) → the repository.
function fromHttp(text: string): CopiedUrl {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return { url: text };
  }
  const m = /^\/([^/]+)\/([^/]+)\/releases\/download\/([^/]+)\/([^/]+)$/.exec(u.pathname);
  if (!m || u.search !== '') return { url: text };
  const decode = (s: string): string => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return {
    url: `${u.origin}/${m[1]}/${m[2]}`,
    download: { tag: decode(m[3] ?? ''), file: decode(m[4] ?? '') },
  };
}
