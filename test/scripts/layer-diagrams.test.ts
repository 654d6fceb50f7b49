// The layering diagrams of CONTRIBUTING.md and docs/architecture.md are the levels lint enforces
// (LAYERS in eslint.config.js), in order, each level's folders together: a level added, moved or
// split in one place and not the others fails here, naming the file.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// LAYERS of eslint.config.js: one array of folder names per level.
async function lintLayers(): Promise<string[][]> {
  const text = await readFile(join(ROOT, 'eslint.config.js'), 'utf8');
  const body = /const LAYERS = \[([\s\S]*?)\n\];/.exec(text)?.[1] ?? '';
  return [...body.matchAll(/^\s*\[([^\]]*)\],/gm)].map((m) =>
    [...(m[1] ?? '').matchAll(/'([a-z]+)'/g)].map((f) => f[1] ?? ''),
  );
}

// The first code block that starts with `entry →`: levels split at →, folders at |.
async function diagram(file: string): Promise<string[][]> {
  const text = await readFile(join(ROOT, file), 'utf8');
  const block = /```\n(entry →[\s\S]*?)```/.exec(text)?.[1] ?? '';
  return block
    .split('→')
    .map((level) => level.split('|').map((f) => f.trim()))
    .filter((level) => level.some((f) => f !== ''));
}

void test('CONTRIBUTING.md and docs/architecture.md draw the layers lint enforces', async () => {
  const layers = await lintLayers();
  assert.ok(layers.length > 10, `only ${layers.length} levels read from eslint.config.js`);
  for (const file of ['CONTRIBUTING.md', 'docs/architecture.md'])
    assert.deepEqual(
      await diagram(file),
      layers,
      `${file}'s layering diagram differs from eslint.config.js LAYERS`,
    );
});
