import { realpathSync } from 'node:fs';
import { isSea } from 'node:sea';
import type { ProcessFacts } from '../system/self-update/install-kind.js';

/** Facts about this process (standalone executable or not, node binary, real script path). */
export function processFacts(): ProcessFacts {
  const script = process.argv[1] ?? process.execPath;
  let real = script;
  try {
    // The npm bin link may be replaced on upgrade; the package's own file stays put.
    real = realpathSync(script);
  } catch {
    // keep the path as given
  }
  return { sea: isSea(), execPath: process.execPath, script: real };
}
