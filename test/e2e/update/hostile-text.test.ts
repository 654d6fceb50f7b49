// Strings from outside reach the terminal escaped and bounded; --json keeps them exact. The audit's
// case: a tag_name with ESC sequences and newlines was printed raw by `update` and `list`, and a
// script's stderr was echoed raw in its error.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, test } from 'node:test';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { sha256 } from '../../helpers/sha256.js';
import { useUpdateSuite } from './harness.js';

// Retitles the window, clears the screen, then forges a second result line; and it is very long.
const HOSTILE_TAG = `1.0\x1b]0;pwned\x07\x1b[2J\nupdated      victim 9 -> 10\r${'A'.repeat(5000)}`;
const HOSTILE_STDERR = 'bad \\033[31mred\\033]0;title\\007 thing\\nfailed       other: forged\\n';

// Nothing a terminal acts on: no ESC, BEL, CR or other control character besides newline.
function assertInert(text: string, what: string): void {
  // eslint-disable-next-line no-control-regex
  const bad = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.exec(text);
  assert.equal(bad, null, `${what} holds a raw control character: ${JSON.stringify(text.slice(0, 400))}`);
}

void describe('outside text on the terminal', () => {
  const suite = useUpdateSuite();

  void test('a hostile tag and script stderr are shown escaped and bounded; --json stays exact', async () => {
    const w = await suite.world('manage_desktop_files: false');
    const body = await fixtureAppImage('evil', '1.0');
    const url = suite.sim.putAsset('/dl/evil/1/evil-1-x86_64.AppImage', body);
    suite.sim.hub.setLatest('e2e', 'evil', {
      tag: HOSTILE_TAG,
      assets: [{ name: 'evil-1-x86_64.AppImage', url, digest: `sha256:${sha256(body)}` }],
    });
    await w.forgeRecipe('evil', '', 'evil-*');
    const recipe = await w.home.writeRecipe(
      'broken',
      'name: broken\nstrategy:\n  strategy: script\n  script_path: resolver.sh\n',
    );
    await writeFile(`${dirname(recipe)}/resolver.sh`, `printf '${HOSTILE_STDERR}' >&2\nexit 3\n`);

    const update = await w.cli(['update']);
    assert.equal(update.code, 1, update.stderr);
    for (const [what, text] of [
      ['update stdout', update.stdout],
      ['update stderr', update.stderr],
    ] as const)
      assertInert(text, what);
    assert.ok(update.stdout.includes('1.0\\x1b]0;pwned\\x07\\x1b[2J\\nupdated      victim'), update.stdout);
    assert.doesNotMatch(update.stdout, /^updated\s+victim/m, 'no forged result line');
    assert.doesNotMatch(update.stdout, /^failed\s+other/m, 'no forged failure line');
    assert.ok(update.stdout.includes('\\x1b[31mred'), 'the script stderr is shown, escaped');
    assert.ok(!update.stdout.includes('A'.repeat(300)), 'the long tag is cut');
    assert.match(update.stdout, /…\(\d+ more characters\)/);

    const list = await w.cli(['list']);
    assert.equal(list.code, 0, list.stderr);
    assertInert(list.stdout, 'list stdout');
    assert.ok(list.stdout.includes('1.0\\x1b]0;pwned'), list.stdout);
    assert.equal(list.stdout.trim().split('\n').length, 3, 'header and one row per app');

    const check = await w.cli(['check']);
    assert.equal(check.code, 1, check.stderr);
    assertInert(check.stdout, 'check stdout');
    assert.match(check.stdout, /^up to date\s+evil 1\.0\\x1b\]0;pwned/m);
    assert.doesNotMatch(check.stdout, /^updated\s+victim/m);

    const json = await w.cli(['--json', 'list']);
    const evil = (json.json as { apps: { name: string; version: string | null }[] }).apps.find(
      (a) => a.name === 'evil',
    );
    assert.equal(evil?.version, HOSTILE_TAG, '--json keeps the tag exact');
    const again = await w.update();
    const broken = again.json?.apps.find((a) => a.name === 'broken');
    assert.ok(broken?.error?.message.includes('\x1b[31mred'), 'the JSON error keeps the raw stderr');
  });
});
