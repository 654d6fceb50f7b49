// Two recipes that follow the same release asset install it twice and show two identical menu
// entries: validate (and every command that loads the workspace) warns, naming both.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

const forge = (name: string, repo: string, asset: string): string =>
  `name: ${name}\nstrategy:\n  strategy: forge\n  repository: ${repo}\n  asset_match: "${asset}"\n`;

let h: TmpHome;
before(async () => {
  h = await makeTmpHome();
});
after(async () => {
  await h.cleanup();
});

void describe('recipes following the same source', () => {
  void test('validate warns once, naming both recipes; other repositories or assets do not', async () => {
    const a = await h.writeRecipe(
      'obsidian',
      forge('obsidian', 'https://github.com/obsidianmd/obsidian-releases', 'Obsidian-*.AppImage'),
    );
    const b = await h.writeRecipe(
      'notes',
      forge('notes', 'https://github.com/ObsidianMD/obsidian-releases.git/', 'Obsidian-*.AppImage'),
    );
    await h.writeRecipe(
      'arm',
      forge('arm', 'https://github.com/obsidianmd/obsidian-releases', 'Obsidian-*-arm64.AppImage'),
    );
    await h.writeRecipe('other', forge('other', 'https://github.com/o/other', 'Obsidian-*.AppImage'));
    const r = await runCli(['validate'], { env: h.env });
    assert.equal(r.code, 0, r.stderr);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('same release asset'));
    assert.equal(warnings.length, 1, r.stderr);
    assert.ok(warnings[0]?.includes('notes') && warnings[0].includes('obsidian'), r.stderr);
    assert.ok(warnings[0]?.includes(a) && warnings[0].includes(b), r.stderr);
    const j = await runCli<{ warnings: string[] }>(['--json', 'validate'], { env: h.env });
    assert.equal(j.json?.warnings.filter((w) => w.includes('same release asset')).length, 1);
  });
});
