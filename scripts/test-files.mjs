// Which test files run, and whether dist/ must be rebuilt first (used by scripts/run-tests.mjs).
//
// The selection rule of `npm run test:fast` (CONTRIBUTING.md): a test file needs the build (and a
// real process) when it, or any test module it imports (a helper, an e2e harness.ts), imports one
// of the helpers that run the built CLI, or reads the repository's dist/. Every other test file is
// unit or in-process and belongs to test:fast. The import is the marker: nothing to keep in sync by
// hand, and those helpers refuse to run under test:fast if a file slips through.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Helpers (test/helpers/<name>.ts) that run dist/ or a real CLI process, by the names that do. */
const PROCESS_HELPERS = [
  { module: 'run-cli', names: /\b(runCli|startCli|CLI_PATH)\b/ },
  { module: 'pty' },
  { module: 'kill-soak' },
  { module: 'sim-world' },
  { module: 'test-hooks-cli' },
];

/** Every *.test.ts under the given files or folders, sorted, skipping fixtures. */
export function collectTests(roots) {
  const out = [];
  const walk = (path) => {
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) {
        if (entry === 'fixtures' || entry === 'node_modules') continue;
        walk(join(path, entry));
      }
    } else if (path.endsWith('.test.ts')) {
      out.push(path);
    }
  };
  for (const root of roots) walk(root);
  return out;
}

const IMPORT = /(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s*'(\.{1,2}\/[^']+)\.js'/g;

/** The value imports of local modules in `text` (of the file at `path`): [target .ts path, clause]. */
function localImports(path, text) {
  return [...text.matchAll(IMPORT)]
    .filter((m) => !m[1]) // a type-only import runs nothing
    .map((m) => [resolve(dirname(path), `${m[3]}.ts`), m[2].replace(/\btype\s+\w+/g, '')]);
}

/** Why this source needs the build from what it imports directly or reads, or undefined. */
function ownReason(path, text) {
  for (const [target, clause] of localImports(path, text)) {
    for (const { module, names } of PROCESS_HELPERS) {
      if (!target.endsWith(join('test', 'helpers', `${module}.ts`))) continue;
      if (!names || names.test(clause)) return `imports helpers/${module}`;
    }
  }
  if (/REPO_ROOT,\s*'dist'/.test(text)) return "reads the repository's dist/";
  return undefined;
}

/** Why `file` needs a fresh build to run (a reason string), or undefined for a unit/in-process test. */
export function buildReason(file, seen = new Set()) {
  const path = resolve(file);
  if (seen.has(path)) return undefined;
  seen.add(path);
  const text = readFileSync(path, 'utf8');
  const own = ownReason(path, text);
  if (own) return own;
  // Follow our own test modules; run-cli.ts itself is judged by the names taken from it
  // (ownReason), since most files import it only for REPO_ROOT.
  for (const [target] of localImports(path, text)) {
    if (!target.includes(join('test', '')) || target.endsWith(join('helpers', 'run-cli.ts'))) continue;
    if (!existsSync(target)) continue;
    const via = buildReason(target, seen);
    if (via) return `${via} (through ${relative(dirname(path), target)})`;
  }
  return undefined;
}

/** Inputs of `npm run build` besides src/: a change to any of them changes dist/. */
const BUILD_INPUTS = [
  'package.json',
  'scripts/build.mjs',
  'scripts/bundle-options.mjs',
  'scripts/cli-docs.ts',
  'scripts/generated-doc.ts',
];
/** Outputs every build writes (dist/ is emptied first, so the oldest of them dates the build). */
const BUILD_OUTPUTS = ['dist/appimage-keeper.cjs', 'dist/chunks/cli.mjs', 'dist/appimage-keeper.1'];

/** The newest file under a folder, as [path, mtimeMs]. */
function newest(dir) {
  let best = ['', 0];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const cand = entry.isDirectory() ? newest(path) : [path, statSync(path).mtimeMs];
    if (cand[1] > best[1]) best = cand;
  }
  return best;
}

/** Why dist/ under `root` is out of date (missing, or older than a source), or undefined. */
export function staleReason(root) {
  let built = Infinity;
  for (const out of BUILD_OUTPUTS) {
    const path = join(root, out);
    if (!existsSync(path)) return `${out} is missing`;
    built = Math.min(built, statSync(path).mtimeMs);
  }
  const inputs = [newest(join(root, 'src'))];
  for (const input of BUILD_INPUTS) {
    const path = join(root, input);
    if (existsSync(path)) inputs.push([path, statSync(path).mtimeMs]);
  }
  const [path, mtime] = inputs.reduce((a, b) => (b[1] > a[1] ? b : a));
  return mtime > built ? `${relative(root, path)} is newer than dist/` : undefined;
}
