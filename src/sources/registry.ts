/**
 * Every source, registered once. A recipe's `strategy: forge` is routed by its repository URL to
 * one of the forges (forges.ts); `direct` and `script` are sources of their own. Adding a forge is
 * one module and one line in `forges` (its kinds are derived from that table); the compiler and the
 * tests walking test/sources/forge-cases.ts name the rest.
 */
import type { AppSettings, ForgeStrategy } from '../config/types.js';
import { direct } from './direct.js';
import { forgeSources, routedForge } from './forges.js';
import { script } from './script.js';
import type { AppSource, ForgeAppSource, Source, SourceBinding, SourceKind } from './source.js';

/** The registry: one source per kind. */
export const sources = { ...forgeSources, direct, script } satisfies Record<SourceKind, Source>;

/** The forge source a recipe's repository belongs to, bound to the app; throws FORGE_REPOSITORY_INVALID. */
export function forgeSourceFor(strategy: ForgeStrategy, settings: AppSettings): ForgeAppSource {
  const { forge, route } = routedForge(strategy.repository, settings);
  return bound(forge, { route, strategy }, settings);
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
