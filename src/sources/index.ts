/** The one import point of the sources: the registry, the resolver entry and the types the engine holds. */
export { forgeSourceFor, sourceFor, sources } from './registry.js';
export { resolveApp } from './resolve.js';
export { createMemoryResolverStore } from './memory-store.js';
export type {
  AppSource,
  AttestationEndpoint,
  ForgeAppSource,
  ProgramNeed,
  Source,
  SourceCaps,
  SourceKind,
} from './source.js';
export type { ReleaseTime, Resolution, ResolveDeps, ResolveOutcome, ResolverStore } from './types.js';
