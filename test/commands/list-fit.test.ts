// `list` on a terminal fits its width (80 and 120 columns: no line wraps, paths `~`-relative and
// shortened in the middle); `--wide` shows everything; piped output stays complete.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { displayWidth } from '../../src/render/display-width.js';
import { directRecipe } from '../config/workspace-fixture.js';
import { runCliInPty, screenLines } from '../helpers/pty.js';
import { runCli } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

const LONG_NAME = 'an-application-with-a-rather-long-name-indeed';
const LONG_VERSION = '2024.11.05-nightly+build.0123456789abcdef0123';

interface Installed {
  name: string;
  version: string;
  file: string;
}

async function installState(h: TmpHome, apps: Installed[]): Promise<void> {
  const entries: Record<string, unknown> = {};
  for (const a of apps) {
    await h.writeRecipe(a.name, directRecipe(a.name));
    await mkdir(dirname(a.file), { recursive: true });
    await writeFile(a.file, 'x'.repeat(1500));
    entries[a.name] = {
      strategy: 'direct',
      installed: {
        version: a.version,
        identity: a.version,
        file: a.file,
        url: 'https://127.0.0.1/app.AppImage',
        size: 1500,
        sha256: '0',
        installedAt: '2026-01-01T00:00:00Z',
      },
      lastCheck: '2026-01-02T00:00:00Z',
      lastUpdate: '2026-01-01T00:00:00Z',
    };
  }
  await mkdir(h.stateDir, { recursive: true });
  await writeFile(
    join(h.stateDir, 'state.json'),
    JSON.stringify({ schema: 1, apps: entries, forgeKinds: {}, rateLimits: {} }),
  );
}

// What a terminal shows: the lines with text, escapes gone.
function shown(raw: string): string[] {
  return screenLines(raw).filter((l) => l.trim() !== '');
}

void describe('list: fits the terminal', () => {
  let h: TmpHome;
  let longFile: string;
  let outsideFile: string;
  before(async () => {
    h = await makeTmpHome();
    longFile = join(
      h.home,
      'Applications',
      'a-storage-directory-with-a-long-name',
      'another-level-of-nesting',
      `${LONG_NAME}-2024.11.05-x86_64.AppImage`,
    );
    // Outside $HOME: shown absolute, never with `~`.
    outsideFile = join(h.root, 'opt-apps', 'short-1.0-x86_64.AppImage');
    await installState(h, [
      { name: LONG_NAME, version: LONG_VERSION, file: longFile },
      { name: 'short', version: '1.0', file: outsideFile },
    ]);
  });
  after(() => h.cleanup());

  for (const columns of [80, 120]) {
    void test(`${columns} columns: no line is wider than the terminal; paths ~-relative, shortened in the middle`, async () => {
      const run = await runCliInPty(['list'], { env: h.env, columns });
      assert.equal(run.code, 0, run.raw);
      const lines = shown(run.raw);
      assert.ok(lines.length >= 3, run.raw);
      for (const line of lines) {
        assert.ok(displayWidth(line) <= columns, `line wider than ${columns}: ${JSON.stringify(line)}`);
      }
      const row = lines.find((l) => l.startsWith('an-application'));
      assert.ok(row, `the long name keeps its start:\n${run.raw}`);
      // The long file: `~/` at its start, `…` inside, its file name's end kept.
      assert.match(row, /~\/\S*…\S+\.AppImage$/, row);
      assert.ok(!row.includes(h.home), row);
      const shortRow = lines.find((l) => l.startsWith('short '));
      assert.ok(shortRow, run.raw);
    });
  }

  void test('--wide shows every column and the full absolute paths, unshortened', async () => {
    const run = await runCliInPty(['list', '--wide'], { env: h.env, columns: 80 });
    assert.equal(run.code, 0, run.raw);
    const text = screenLines(run.raw).join('');
    // The terminal wraps the long row: join the lines back before looking for the path.
    assert.ok(text.includes(longFile), run.raw);
    assert.ok(text.includes(LONG_VERSION), run.raw);
    assert.ok(text.includes(LONG_NAME), run.raw);
    assert.ok(!text.includes('…'), run.raw);
    for (const header of ['STRATEGY', 'CHECKED', 'UPDATED', 'DESKTOP', 'SYMLINK', 'ATTESTED']) {
      assert.ok(text.includes(header), `${header} missing:\n${run.raw}`);
    }
  });

  void test('piped output stays complete: absolute paths, nothing shortened, every column', async () => {
    const run = await runCli(['list'], { env: h.env });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.includes(longFile), run.stdout);
    assert.ok(run.stdout.includes(outsideFile), run.stdout);
    assert.ok(run.stdout.includes(LONG_VERSION), run.stdout);
    assert.ok(!run.stdout.includes('…'), run.stdout);
    assert.ok(!run.stdout.includes('~/'), run.stdout);
    assert.match(
      run.stdout,
      /^NAME +STRATEGY +VERSION +SIZE +CHECKED +UPDATED +DESKTOP +SYMLINK +ATTESTED +STATUS +FILE$/m,
    );
  });

  void test('COLUMNS, when set, is the width to fit', async () => {
    const run = await runCliInPty(['list'], { env: { ...h.env, COLUMNS: '60' }, columns: 120 });
    assert.equal(run.code, 0, run.raw);
    for (const line of shown(run.raw)) {
      assert.ok(displayWidth(line) <= 60, `line wider than 60: ${JSON.stringify(line)}`);
    }
  });
});
