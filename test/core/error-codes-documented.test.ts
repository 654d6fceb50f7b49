// Every error code the tool throws through src/core/errors.ts's classes (`new KeeperError('CODE'`,
// `new UsageError('CODE'`, a subclass's `super('CODE'`) is named on a page of docs/, so a user who
// meets one can look it up; a new code without its line in the docs fails here, naming it.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const THROWN = /(?:new\s+(?:KeeperError|UsageError)|\bsuper)\(\s*'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)'/g;

async function files(dir: string, ext: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith(ext)).map((e) => join(e.parentPath, e.name));
}

void test('every error code thrown in src/ is named in docs/*.md', async () => {
  const where = new Map<string, string>();
  for (const file of await files(join(ROOT, 'src'), '.ts'))
    for (const m of (await readFile(file, 'utf8')).matchAll(THROWN))
      if (m[1] && !where.has(m[1])) where.set(m[1], relative(ROOT, file));
  assert.ok(where.size > 100, `only ${where.size} codes found: the pattern no longer matches the code`);
  const docs = (
    await Promise.all((await files(join(ROOT, 'docs'), '.md')).map((f) => readFile(f, 'utf8')))
  ).join('\n');
  const missing = [...where]
    .filter(([code]) => !new RegExp(`\\b${code}\\b`).test(docs))
    .map(([code, file]) => `${code} (${file})`);
  assert.deepEqual(missing, [], `error codes no page of docs/ names:\n  ${missing.join('\n  ')}`);
});
