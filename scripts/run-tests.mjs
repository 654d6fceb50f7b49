// Runs every *.test.ts under test/ (or the paths given) with node's own test runner through tsx.
// Before that it rebuilds dist/ when a selected test runs the built CLI and a source is newer.
// `--fast` runs only unit and in-process tests (the rule is in scripts/test-files.mjs) and never
// builds; other `--` flags go to `node --test`.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildReason, collectTests, staleReason } from './test-files.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const fast = args.includes('--fast');
const roots = args.filter((a) => !a.startsWith('--'));
const flags = args.filter((a) => a.startsWith('--') && a !== '--fast');

const found = collectTests(roots.length ? roots : [join(ROOT, 'test')]);
const files = fast ? found.filter((f) => buildReason(f) === undefined) : found;
if (files.length === 0) {
  const left = found.length - files.length;
  console.error(`no test files found${left ? ` (--fast leaves out ${left} that need the build)` : ''}`);
  process.exit(1);
}

if (!fast && files.some((f) => buildReason(f) !== undefined)) {
  const stale = staleReason(ROOT);
  if (stale) {
    console.error(`run-tests: ${stale}: building first (npm run build)`);
    const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
}

// The terminal gets marks, the failures and the totals last; the whole TAP stream goes to a file, so
// a run of 1,300 tests is a screen, not 8,600 lines. A reporter given on the command line wins.
const reporters = [];
if (!flags.some((f) => f.startsWith('--test-reporter'))) {
  const log = join(ROOT, '.test-output', 'last-run.tap');
  mkdirSync(dirname(log), { recursive: true });
  console.error(`run-tests: ${files.length} files; the full TAP output goes to ${log}`);
  reporters.push(
    `--test-reporter=${join(ROOT, 'scripts', 'test-summary-reporter.mjs')}`,
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${log}`,
  );
}

const res = spawnSync(
  process.execPath,
  // A file's own timeout covers all its tests: 5 min leaves room for the longest e2e file
  // (provenance) on a loaded 2-core machine; a hung test still ends.
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=3',
    '--test-timeout=300000',
    ...reporters,
    ...flags,
    ...files,
  ],
  { stdio: 'inherit', env: fast ? { ...process.env, KEEPER_TEST_FAST: '1' } : process.env },
);
process.exit(res.status ?? 1);
