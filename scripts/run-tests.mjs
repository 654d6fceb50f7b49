// Runs every *.test.ts under test/ (or the paths given) with node's own test runner through tsx.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(path, out) {
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).sort()) {
      if (entry === 'fixtures' || entry === 'node_modules') continue;
      collect(join(path, entry), out);
    }
  } else if (path.endsWith('.test.ts')) {
    out.push(path);
  }
  return out;
}

const roots = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const files = (roots.length ? roots : ['test']).flatMap((r) => collect(r, []));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const res = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=3', '--test-timeout=120000', ...flags, ...files],
  { stdio: 'inherit' },
);
process.exit(res.status ?? 1);
