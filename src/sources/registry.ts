/**
 * Every source, registered once. A recipe's `strategy: forge` is routed by host to hub, lab or
 * gitea (forge/detect.ts); `direct` and `script` are sources of their own. Adding a kind is one
 * module, one line in SourceKind (source.ts) and one line here; the compiler names the rest.
 */
import type { AppSettings, ForgeStrategy } from '../config/types.js';
import { direct } from './direct.js';
import { routeRepository } from './forge/detect.js';
import { gitea } from './forge/gitea.js';
import { hub } from './forge/hub.js';
import { lab } from './forge/lab.js';
import { script } from './script.js';
import type { AppSource, ForgeAppSource, Source, SourceBinding, SourceKind } from './source.js';

/** The registry: one source per kind. */
export const sources = { hub, lab, gitea, direct, script } satisfies Record<SourceKind, Source>;

/**
 * The forge source a repository URL belongs to, bound to the app; throws FORGE_REPOSITORY_INVALID
 * for a URL no forge can use. A host that is neither the hub's nor the lab's is taken to be a
 * Gitea or Forgejo, which detection confirms when the release is fetched.
 */
export function forgeSourceFor(strategy: ForgeStrategy, settings: AppSettings): ForgeAppSource {
  const route = routeRepository(strategy.repository, settings);
  switch (route.kind) {
    case 'hub':
      return bound(sources.hub, { route, strategy }, settings);
    case 'lab':
      return bound(sources.lab, { route, strategy }, settings);
    case 'self-hosted':
      return bound(sources.gitea, { route, strategy }, settings);
  }
}

/** The source an app follows, bound to it; throws FORGE_REPOSITORY_INVALID like `forgeSourceFor`. */
export function sourceFor(settings: AppSettings): AppSource {
  const strategy = settings.strategy;
  switch (strategy.strategy) {
    case 'forge':
      return forgeSourceFor(strategy, settings);
    case 'direct':
      return bound(sources.direct, strategy, settings);
    case 'script':
      return bound(sources.script, strategy, settings);
  }
}

function bound<T, B extends SourceBinding>(
  source: Source<T, B>,
  target: T,
  settings: AppSettings,
): B & { kind: SourceKind; caps: Source['caps'] } {
  return { ...source.bind(target, settings), kind: source.kind, caps: source.caps };
}
