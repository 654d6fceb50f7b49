/**
 * The forges and how a repository URL reaches one: a table, not a switch. A forge's kind is its
 * name here. A forge that owns its host by name (`ownsHost`) takes the URL; the one forge without
 * `ownsHost` takes every other host. Each forge reads its own route from the URL and writes the
 * canonical URL back.
 */
import { gitea } from './forge/gitea.js';
import { hub } from './forge/hub.js';
import { lab } from './forge/lab.js';
import { parseRepositoryUrl, type RepositoryUrl, type RouteSettings } from './forge/repository-url.js';
import type { ForgeSource } from './source.js';

/** Every forge, once, under its kind; the registry (registry.ts) lists them among the sources. */
export const forges = { hub, lab, gitea } satisfies Record<string, ForgeSource>;

/** The forges a `strategy: forge` recipe is routed to: hub = GitHub, lab = GitLab, gitea = Gitea/Forgejo. */
export type ForgeKind = keyof typeof forges;

/** The route a forge reads from a URL: `{ kind }` and that forge's share of it. */
export type ForgeRoute = {
  [K in ForgeKind]: { kind: K } & ReturnType<(typeof forges)[K]['route']>;
}[ForgeKind];

/** Each forge as a source: the forge and its kind, its name in the table. */
export const forgeSources = Object.fromEntries(
  Object.entries(forges).map(([kind, forge]) => [kind, { ...forge, kind }]),
) as { [K in ForgeKind]: (typeof forges)[K] & { kind: K } };

/** A forge with its kind. */
type KindedForge = ForgeSource & { kind: ForgeKind };

const FORGE_LIST: readonly KindedForge[] = Object.values(forgeSources);

// The forge that takes hosts no other forge owns; the registry test keeps it exactly one.
const ANY_HOST = FORGE_LIST.find((f) => f.ownsHost === undefined) as KindedForge;

function forgeOf(repository: RepositoryUrl, settings: RouteSettings): KindedForge {
  const host = repository.url.host;
  return FORGE_LIST.find((f) => f.ownsHost?.(host, settings)) ?? ANY_HOST;
}

/** The forge a repository URL goes to and the route it reads; throws like `routeRepository`. */
export function routedForge(
  repository: string,
  settings: RouteSettings,
): { forge: KindedForge; route: unknown } {
  const parsed = parseRepositoryUrl(repository);
  const forge = forgeOf(parsed, settings);
  return { forge, route: forge.route(parsed, settings) };
}

/** Maps a repository URL to its forge and route; throws FORGE_REPOSITORY_INVALID for unusable URLs. */
export function routeRepository(repository: string, settings: RouteSettings): ForgeRoute {
  const { forge, route } = routedForge(repository, settings);
  return { kind: forge.kind, ...(route as object) } as ForgeRoute;
}

/** True when `url` is on a forge that owns its host by name (the hub, the lab, configured hosts). */
export function knownByHost(url: string, settings: RouteSettings): boolean {
  try {
    return routedForge(url, settings).forge !== ANY_HOST;
  } catch {
    return false;
  }
}

/** The repository a URL points into, as a recipe writes it; undefined when it names none. */
export function canonicalRepository(url: string, settings: RouteSettings): string | undefined {
  try {
    const parsed = parseRepositoryUrl(url);
    const forge = forgeOf(parsed, settings);
    return forge.canonicalUrl(forge.route(parsed, settings), parsed);
  } catch {
    return undefined;
  }
}
