/**
 * One case per forge, keyed by ForgeKind: a URL it routes with its canonical form, and how to
 * publish one release on the simulator and reach it. The registry test and the simulator's
 * forge-table test walk every case, so a new forge fails to compile until it has one here.
 */
import type { Sim, SimReleaseAsset } from '../../sim/index.js';
import type { AppSettings } from '../../src/config/types.js';
import type { ForgeKind } from '../../src/sources/source.js';

/** What a forge case publishes on the sim: the repository URL and the settings that route it there. */
export interface PublishedOnSim {
  repository: string;
  settings: Partial<AppSettings>;
  tag: string;
}

/** A forge's test case. */
export interface ForgeCase {
  /** A public URL into a repository of the forge, and that repository as a recipe writes it. */
  url: string;
  canonical: string;
  publish: (sim: Sim, asset: SimReleaseAsset) => PublishedOnSim;
}

/** Every forge's case. */
export const FORGE_CASES: Record<ForgeKind, ForgeCase> = {
  hub: {
    url: 'https://github.com/o/r.git',
    canonical: 'https://github.com/o/r',
    publish: (sim, asset) => {
      sim.hub.setLatest('team', 'app', { tag: 'v1-hub', assets: [asset] });
      const settings = { hub_release_web_url: sim.url, hub_release_api_url: sim.hubApiUrl };
      return { repository: `${sim.url}/team/app`, settings, tag: 'v1-hub' };
    },
  },
  lab: {
    url: 'https://gitlab.com/g/sub/p/-/releases/v1',
    canonical: 'https://gitlab.com/g/sub/p',
    publish: (sim, asset) => {
      sim.lab.setLatest('group/app', { tag: 'v1-lab', assets: [asset] });
      return {
        repository: `${sim.url}/group/app`,
        settings: { lab_release_web_url: sim.url },
        tag: 'v1-lab',
      };
    },
  },
  gitea: {
    url: 'https://codeberg.org/o/r/releases/tag/v1',
    canonical: 'https://codeberg.org/o/r',
    publish: (sim, asset) => {
      sim.gitea.setLatest('team', 'app', { tag: 'v1-gitea', assets: [asset] });
      return { repository: `${sim.url}/team/app`, settings: {}, tag: 'v1-gitea' };
    },
  },
};
