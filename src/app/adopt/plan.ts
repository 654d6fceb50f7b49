/**
 * From what an AppImage says about itself to a recipe: the source named with `--url`, else its
 * update information's transport, else what the source finders propose (AppStream today). Pure
 * apart from the lookups it is given (forge requests).
 */
import { basename } from 'node:path';
import type { UpdateInfo } from '../../appimage/update-info.js';
import { APP_NAME_RE } from '../../config/recipe-checks.js';
import { KeeperError, toKeeperError } from '../../core/errors.js';
import { appImageArch, archesInName, retargetArch, type AppImageArch } from '../../sources/forge/arch.js';
import type { ForgeRelease } from '../../sources/forge/release.js';
import type { RecipeDraft } from '../add/recipe-text.js';
import { nameFromFileName } from './file-names.js';
import { plingResolverScript } from './pling-script.js';
import type { AdoptInspection } from './inspect.js';
import type { CatalogueProposal, CatalogueSuggestion } from './catalogue-finder.js';
import {
  findSource,
  noSourceHint,
  type FoundSource,
  type FromUrl,
  type SourceFinder,
} from './source-finders.js';

/** How one file would be adopted, or why it cannot be. */
export type AdoptPlan =
  | {
      ok: true;
      file: string;
      recipe: RecipeDraft;
      /** Where updates come from, in words (`update information gh-releases-zsync`, `AppStream vcs-browser`). */
      source: string;
      version: string;
      notes: string[];
      inspection: AdoptInspection;
      /** The catalogue entry that named the source; such a plan is taken only once confirmed. */
      match?: CatalogueProposal | undefined;
      confirm?: boolean | undefined;
      suggestions: CatalogueSuggestion[];
    }
  | {
      ok: false;
      file: string;
      error: KeeperError;
      inspection?: AdoptInspection | undefined;
      suggestions: CatalogueSuggestion[];
    };

/** What planning needs besides the inspection. */
export interface PlanOptions {
  /** App name to use instead of the derived one. */
  name?: string | undefined;
  nodeArch: string;
  /** The latest release of a forge repository (for files without update information). */
  lookupRelease: (repository: string) => Promise<ForgeRelease>;
  /** Whether a repository URL belongs to the hub or the lab (configured hosts included). */
  isKnownForge: (url: string) => boolean;
  /** The repository a URL points into, as a recipe writes it. */
  repositoryOf: (url: string) => string | undefined;
  /** `--url`: the source named by the user, read as `add` reads a URL; wins over update information. */
  url?: string | undefined;
  /** Reads `url` into a source (as `add URL` would), for the app `name`. */
  fromUrl?: FromUrl | undefined;
  /** Finders for a file without update information (default: AppStream; `adopt` adds the catalogues). */
  finders?: readonly SourceFinder[] | undefined;
}

const RETIRED = new Set(['bintray-zsync', 'ocs-v1-appimagehub-zsync']);

/** Lower-case name usable as an app name: letters, digits, `.`, `_`, `+`, `-`. */
export function slugAppName(text: string): string | undefined {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._+-]+/g, '-')
    .replace(/^[^a-z0-9]+|[-._]+$/g, '')
    .slice(0, 64);
  return APP_NAME_RE.test(slug) ? slug : undefined;
}

function appName(insp: AdoptInspection, override: string | undefined): string {
  if (override !== undefined) {
    if (!APP_NAME_RE.test(override))
      throw new KeeperError('ADOPT_NAME_INVALID', `--name ${override} is not a valid app name`, {
        hint: 'use letters, digits, . _ + - (starting with a letter or digit)',
      });
    return override;
  }
  const fromDesktop = insp.displayName ? slugAppName(insp.displayName) : undefined;
  const name = fromDesktop ?? slugAppName(nameFromFileName(basename(insp.file)));
  if (!name)
    throw new KeeperError('ADOPT_NAME_INVALID', `no app name can be derived from ${basename(insp.file)}`, {
      hint: 'pass --name NAME',
    });
  return name;
}

function versionOf(insp: AdoptInspection): string {
  if (insp.version) return insp.version;
  const m = /\d+(?:\.\d+)+/.exec(basename(insp.file));
  return m ? m[0] : 'unknown';
}

/** The pattern fixed to this machine's architecture, and a note when it named another one. */
function archFixed(pattern: string, nodeArch: string, notes: string[]): string {
  const host = appImageArch(nodeArch) as AppImageArch;
  const named = archesInName(pattern);
  if (named.length === 0 || named.every((a) => a === host)) return pattern;
  const fixed = retargetArch(pattern, host).name;
  notes.push(
    `the update information's pattern ${pattern} names ${named.join(', ')}; this machine is ${host}, so asset_match is ${fixed}`,
  );
  return fixed;
}

function fromGhReleases(
  info: Extract<UpdateInfo, { transport: 'gh-releases-zsync' }>,
  nodeArch: string,
  notes: string[],
) {
  const pattern = archFixed(info.pattern.replace(/\.zsync$/i, ''), nodeArch, notes);
  const strategy: Record<string, unknown> = {
    strategy: 'forge',
    repository: `https://github.com/${info.owner}/${info.repo}`,
    asset_match: pattern,
  };
  if (info.tag === 'latest-pre') strategy.prerelease = 'only';
  else if (info.tag === 'latest-all') strategy.prerelease = true;
  else if (info.tag !== 'latest') strategy.tag = info.tag;
  return strategy;
}

function fromZsync(url: string): Record<string, unknown> {
  // The control file names its target; by the transport's convention it sits beside it.
  const target = url.replace(/\.zsync$/i, '');
  return { strategy: 'direct', url: target, check_method: 'etag' };
}

/** Plans the adoption of one inspected file. Never throws: a file that cannot be adopted says why. */
export async function planAdoption(insp: AdoptInspection, opts: PlanOptions): Promise<AdoptPlan> {
  const file = insp.file;
  const suggestions: CatalogueSuggestion[] = [];
  try {
    const notes: string[] = [];
    const name = appName(insp, opts.name);
    const info = insp.updateInfo;
    const version = versionOf(insp);
    const done = (recipe: RecipeDraft, source: string): Extract<AdoptPlan, { ok: true }> => ({
      ok: true,
      file,
      recipe,
      source,
      version,
      notes,
      inspection: insp,
      suggestions,
    });
    const found = (f: FoundSource): AdoptPlan => ({
      ...done({ name, strategy: f.strategy, zsync: f.zsync, selects: f.selects }, f.source),
      match: f.match,
      confirm: f.confirm,
    });
    if (opts.url !== undefined && opts.fromUrl) {
      const named = await opts.fromUrl(opts.url, name);
      notes.push(...named.notes);
      if (info.transport !== 'none')
        notes.push(`--url given: the update information ${info.raw} is not used`);
      return found(named);
    }
    if (info.transport === 'gh-releases-zsync') {
      return done(
        { name, strategy: fromGhReleases(info, opts.nodeArch, notes), zsync: 'auto' },
        `update information ${info.raw}`,
      );
    }
    if (info.transport === 'zsync') {
      return done({ name, strategy: fromZsync(info.url), zsync: info.url }, `update information ${info.raw}`);
    }
    if (info.transport === 'pling-v1-zsync') {
      const pattern = archFixed(info.pattern.replace(/\.zsync$/i, ''), opts.nodeArch, notes);
      const script = plingResolverScript(info.id, pattern);
      return done(
        {
          name,
          strategy: { strategy: 'script', script_path: 'resolver.sh' },
          files: { 'resolver.sh': script },
        },
        `update information ${info.raw}`,
      );
    }
    if (info.transport === 'unknown') {
      const transport = info.raw.split('|')[0] ?? info.raw;
      const retired = RETIRED.has(transport);
      throw new KeeperError(
        'ADOPT_TRANSPORT_UNKNOWN',
        `update information "${info.raw}" uses ${retired ? 'the retired' : 'an unknown'} transport ${transport}`,
        { hint: noSourceHint(file, name) },
      );
    }
    return found(
      await findSource(
        insp,
        {
          nodeArch: opts.nodeArch,
          name,
          lookupRelease: opts.lookupRelease,
          isKnownForge: opts.isKnownForge,
          repositoryOf: opts.repositoryOf,
          notes,
          suggestions,
          fromUrl: opts.fromUrl,
        },
        opts.finders,
      ),
    );
  } catch (err) {
    return { ok: false, file, error: toKeeperError(err), inspection: insp, suggestions };
  }
}
