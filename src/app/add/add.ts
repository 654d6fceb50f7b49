/**
 * `add URL`: a recipe from a URL. A forge repository becomes a forge recipe whose asset_match is
 * derived from its latest release; any other URL a direct recipe whose check_method is the header
 * the server sends (ETag preferred over Last-Modified).
 */
import { APP_NAME_RE } from '../../config/recipe-checks.js';
import { redactUrl, urlFieldProblem } from '../../config/url-field.js';
import type { Workspace } from '../../config/workspace.js';
import { KeeperError, toKeeperError } from '../../core/errors.js';
import type { Run } from '../run.js';
import { request } from '../../http/http.js';
import { slugAppName } from '../adopt/plan.js';
import type { ForgeRelease } from '../../sources/forge/release.js';
import { nameFromAsset } from './app-name.js';
import { isLooseAppImageName, MAX_PROBED, probeAppImage } from './appimage-probe.js';
import { readCopiedUrl, type CopiedUrl } from './copied-url.js';
import { canonicalRepository, latestRelease, repositoryArchived } from './forge-lookup.js';
import {
  deriveAssetMatch,
  forgeStrategyBlock,
  globForName,
  type DeriveOptions,
} from './recipe-from-release.js';
import { recipeText, writeNewRecipe, type RecipeDraft } from './recipe-text.js';

/** How `add` chooses among several AppImages: flags, and the terminal's prompt when there is one. */
export interface AddOptions {
  name?: string | undefined;
  dryRun: boolean;
  assetMatch?: string | undefined;
  assetRegex?: string | undefined;
  /** Asks which candidate to follow; undefined answer = none (ADD_ASSET_AMBIGUOUS stands). */
  pick?: ((candidates: string[]) => Promise<string | undefined>) | undefined;
  /** More comment lines above the recipe (the catalogue entry it came from). */
  comment?: string[] | undefined;
  /**
   * A catalogue named the repository: ask the forge whether it is archived first (one request) and
   * refuse one that is, naming `entry`, with `hint` saying how to follow it anyway.
   */
  refuseArchived?: { entry: string; hint: string } | undefined;
}

/** What `add` made. */
export interface AddResult {
  name: string;
  kind: 'forge' | 'direct';
  recipe: RecipeDraft;
  /** The recipe's YAML text as written (or as it would be). */
  text: string;
  /** null with --dry-run. */
  file: string | null;
  /** forge: the release and asset the recipe selects today. */
  release: { tag: string; asset: string } | null;
  notes: string[];
}

// Codes meaning "this host is not a forge we can read": the URL is then a plain download.
const NOT_A_FORGE = new Set(['FORGE_UNKNOWN', 'FORGE_REPOSITORY_INVALID']);

// The URL check every recipe URL field passes, before anything is requested, written or printed.
function parseHttpUrl(url: string): URL {
  const problem = urlFieldProblem(url);
  if (problem?.code === 'URL_CREDENTIALS')
    throw new KeeperError('ADD_URL_CREDENTIALS', `${redactUrl(url)} carries credentials (user:password@)`, {
      hint: problem.hint,
      exitCode: 2,
    });
  if (problem)
    throw new KeeperError('ADD_URL_INVALID', `${redactUrl(url)} ${problem.message}`, { exitCode: 2 });
  return new URL(url);
}

function nameFrom(override: string | undefined, fallback: string): string {
  const name = override ?? slugAppName(fallback);
  if (!name || !APP_NAME_RE.test(name))
    throw new KeeperError('ADD_NAME_INVALID', `no usable app name from ${fallback}`, {
      hint: 'pass --name NAME',
      exitCode: 2,
    });
  return name;
}

// Loosely named assets (`…_AppImage`) confirmed by their first bytes; the others noted.
async function confirmLoose(release: ForgeRelease, run: Run, notes: string[]): Promise<Set<string>> {
  const confirmed = new Set<string>();
  if (release.assets.some((a) => a.name.endsWith('.AppImage'))) return confirmed;
  const loose = release.assets.filter((a) => isLooseAppImageName(a.name));
  for (const a of loose.slice(0, MAX_PROBED)) {
    const probe = await probeAppImage(run.ctx.http, a, run.signal);
    if (probe.ok) confirmed.add(a.name);
    else notes.push(`left out ${a.name}: ${probe.why}`);
  }
  if (loose.length > MAX_PROBED)
    notes.push(`looked inside only the first ${MAX_PROBED} of ${loose.length} assets named like AppImages`);
  return confirmed;
}

async function forgeDraft(
  repository: string,
  copied: CopiedUrl,
  opts: Omit<AddOptions, 'dryRun'>,
  run: Run,
): Promise<{ draft: RecipeDraft; release: AddResult['release']; notes: string[] }> {
  const refuse = opts.refuseArchived;
  // Unknown (a limit, an error) is not a refusal: the release lookup that follows says what is wrong.
  const archived = refuse
    ? await repositoryArchived(run, repository).catch((err: unknown) => {
        if (run.signal.aborted) throw err;
        return undefined;
      })
    : undefined;
  if (refuse && archived === true)
    throw new KeeperError(
      'CATALOGUE_ENTRY_ARCHIVED',
      `${refuse.entry} names ${repository}, which its owner archived: it will publish no new release`,
      { hint: refuse.hint },
    );
  const release = await latestRelease(run, repository);
  const notes: string[] = [];
  const derive: DeriveOptions = {
    confirmed: await confirmLoose(release, run, notes),
    glob: opts.assetMatch,
    regex: opts.assetRegex,
    prefer: copied.download ? globForName(copied.download.file, copied.download.tag) : undefined,
  };
  let derived;
  try {
    derived = deriveAssetMatch(release, run.ctx.arch, derive);
  } catch (err) {
    const e = toKeeperError(err);
    const candidates = e.details?.candidates as string[] | undefined;
    if (e.code !== 'ADD_ASSET_AMBIGUOUS' || !opts.pick || !candidates) throw err;
    const chosen = await opts.pick(candidates);
    if (chosen === undefined) throw err;
    derived = deriveAssetMatch(release, run.ctx.arch, {
      ...derive,
      glob: undefined,
      regex: undefined,
      chosen,
    });
  }
  const segments = new URL(repository).pathname.split('/').filter(Boolean);
  const strategy = forgeStrategyBlock(repository, derived);
  const zsyncAsset = release.assets.some((a) => a.name === `${derived.asset.name}.zsync`);
  const fromAsset = opts.name === undefined ? nameFromAsset(derived.asset.name, release.tag) : undefined;
  return {
    draft: {
      name: nameFrom(opts.name ?? fromAsset, segments[segments.length - 1] ?? repository),
      strategy,
      ...(zsyncAsset ? { zsync: 'auto' } : {}),
      selects: derived.asset.name,
    },
    release: { tag: release.tag, asset: derived.asset.name },
    notes: [...notes, ...derived.notes],
  };
}

async function directDraft(url: string, override: string | undefined, run: Run): Promise<RecipeDraft> {
  let res = await request(run.ctx.http, url, { method: 'HEAD', discardBody: true, signal: run.signal });
  if (res.status === 405 || res.status === 501)
    res = await request(run.ctx.http, url, {
      headers: { range: 'bytes=0-0' },
      discardBody: true,
      signal: run.signal,
    });
  if (res.status >= 400)
    throw new KeeperError('ADD_URL_UNREACHABLE', `${url} answered HTTP ${res.status}`, {
      hint: 'check the URL in a browser',
    });
  const method = res.headers.etag ? 'etag' : res.headers['last-modified'] ? 'last-modified' : undefined;
  if (!method)
    throw new KeeperError('ADD_NO_CHECK_METHOD', `${url} sends neither ETag nor Last-Modified`, {
      hint: 'without one, changes cannot be detected: write a script recipe (appimage-keeper init --app NAME --strategy script)',
    });
  const file = new URL(res.url).pathname.split('/').pop() ?? '';
  const base = file.replace(/\.appimage$/i, '').replace(/[-_.]?(x86[-_]64|amd64|aarch64|arm64)$/i, '');
  const stem = base.replace(/[-_]v?\d+(\.\d+)*.*$/, '') || new URL(url).hostname.split('.')[0] || 'app';
  return { name: nameFrom(override, stem), strategy: { strategy: 'direct', url, check_method: method } };
}

/** A recipe draft (not written) from `url`, as `add` reads it: the one place a source URL is understood. */
export type UrlDraft = Omit<AddResult, 'text' | 'file'>;

/**
 * Turns anything `add` accepts (a URL, `owner/repo`, `git@host:owner/repo.git`, a release download
 * URL) into a recipe draft: a forge repository (its latest release read) or a direct download (one
 * HEAD request). `adopt --url` uses it too, so both accept the same URLs with the same checks.
 */
export async function draftFromUrl(
  url: string,
  opts: Omit<AddOptions, 'dryRun'>,
  run: Run,
): Promise<UrlDraft> {
  // A URL is checked as typed (credentials, control characters) before anything is derived from it.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url.trim())) parseHttpUrl(url.trim());
  const copied = readCopiedUrl(url, run.ws.global.hub_release_web_url);
  const u = parseHttpUrl(copied.url);
  const looksLikeFile = copied.download === undefined && /\.(appimage|zip)$/i.test(u.pathname);
  const repository = looksLikeFile ? undefined : canonicalRepository(run, u.href);
  if (repository !== undefined) {
    try {
      const f = await forgeDraft(repository, copied, opts, run);
      return { name: f.draft.name, kind: 'forge', recipe: f.draft, release: f.release, notes: f.notes };
    } catch (err) {
      if (!NOT_A_FORGE.has(toKeeperError(err).code)) throw err;
    }
  }
  const draft = await directDraft(/^https?:\/\//i.test(url.trim()) ? url.trim() : u.href, opts.name, run);
  return { name: draft.name, kind: 'direct', recipe: draft, release: null, notes: [] };
}

/** Makes (and unless `dryRun`, writes and validates) the recipe for `url`. */
export async function addFromUrl(url: string, opts: AddOptions, ws: Workspace, run: Run): Promise<AddResult> {
  const result = await draftFromUrl(url, opts, run);
  const comment = [`added from ${url}`, ...(opts.comment ?? [])];
  const text = recipeText(result.recipe, comment);
  if (opts.dryRun) return { ...result, text, file: null };
  const written = await writeNewRecipe(ws, result.recipe, comment);
  return { ...result, text, file: written.file };
}
