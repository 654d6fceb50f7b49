// A recipe with several problems, as `update` and `check` print it: one problem a line, as
// `validate` prints them, never a message with an escaped "\n" in it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runInProcess } from '../helpers/run-in-process.js';
import { makeTmpHome } from '../helpers/tmp-home.js';

const BAD = [
  'name: tool',
  'strategy:',
  '  strategy: forge',
  '  repository: https://github.com/x/y',
  '  asset_match: 3',
  '  bogus: 1',
  '',
].join('\n');

void describe('recipe problems in update and check', () => {
  for (const command of ['update', 'check']) {
    void test(`${command} lists each problem of a recipe on its own line`, async () => {
      const h = await makeTmpHome();
      try {
        const file = await h.writeRecipe('tool', BAD);
        const r = await runInProcess([command], { env: h.env });
        assert.equal(r.code, 1, r.stderr);
        assert.doesNotMatch(r.stdout, /\\n/, r.stdout);
        const lines = r.stdout.split('\n');
        const at = lines.findIndex((l) => /tool: 2 problems:$/.test(l));
        assert.ok(at >= 0, r.stdout);
        assert.match(
          lines[at + 1] ?? '',
          new RegExp(`^ +${file}:5:16: strategy\\.asset_match: must be text`),
        );
        assert.match(lines[at + 2] ?? '', new RegExp(`^ +${file}:6:3: unknown key "bogus"$`));
        const json = await runInProcess<{ apps: { error: { issues?: unknown[] } }[] }>(['--json', command], {
          env: h.env,
        });
        assert.equal(json.json?.apps[0]?.error.issues?.length, 2, json.stdout);
      } finally {
        await h.cleanup();
      }
    });
  }
});
