/** How the running appimage-keeper was installed, which decides what self-update may touch. */
import { dirname, sep } from 'node:path';

/**
 * standalone: the single executable (self-update replaces it); npm: installed by npm from the
 * registry or a release tarball (npm owns those files); source: run from a clone (`npm install -g .`
 * links to it, or `node dist/appimage-keeper.cjs`).
 */
export type InstallKind =
  | { kind: 'standalone'; executable: string }
  | { kind: 'npm'; script: string }
  | { kind: 'source'; dir: string };

/** Facts about the running process, gathered by the CLI. */
export interface ProcessFacts {
  /** `node:sea`'s isSea(): true inside the standalone executable. */
  sea: boolean;
  execPath: string;
  /** Real path of the bundled script (process.argv[1] with symlinks resolved). */
  script: string;
}

/** Classifies the running install. */
export function installKindOf(facts: ProcessFacts): InstallKind {
  if (facts.sea) return { kind: 'standalone', executable: facts.execPath };
  if (facts.script.split(sep).includes('node_modules')) return { kind: 'npm', script: facts.script };
  // <clone>/dist/appimage-keeper.cjs
  return { kind: 'source', dir: dirname(dirname(facts.script)) };
}
