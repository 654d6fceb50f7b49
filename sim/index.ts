/**
 * Loopback forge simulator: hub, lab and gitea release APIs, assets with ranges and validators,
 * a metadata proxy, and fault / rate-limit injection. See docs/simulator.md.
 */
export { startSim } from './start-sim.js';
export { generatedBytes, generatedChunks, generatedSha256 } from './generator.js';
export { serveCatalogues } from './catalogues.js';
export type { AmApp, HubFeedItem, ServedCatalogues, SimCatalogues } from './catalogues.js';
export type {
  AssetBody,
  AssetOptions,
  Fault,
  RateLimitKind,
  RateLimitOptions,
  RecordedRequest,
  Sim,
  SimGitea,
  SimHub,
  SimLab,
  SimOptions,
  SimOrigin,
  SimRelease,
  SimReleaseAsset,
} from './types.js';
