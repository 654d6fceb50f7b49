// Whatever the repair lets through must pass desktop-file-validate: seeded random upstream entries
// with the mistakes real files make (missing Type/Name, unknown keys, bad values, dangling actions).
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDesktopEntry, serializeDesktopEntry } from '../../src/appimage/desktop-entry.js';
import { repairDesktopEntry } from '../../src/install/desktop-repair.js';
import { rewriteDesktopEntry } from '../../src/install/desktop-rewrite.js';
import { tempDir } from '../appimage/helpers.js';
import { seededRandom } from '../helpers/seeded-random.js';

const MAIN_LINES = [
  'Type=Application',
  'Type=Link',
  'Type=',
  'Name=App',
  'Name[de]=App (de)',
  'GenericName[fr]=Appli',
  'Comment=Does things',
  'Comment[es]=Hace cosas',
  'Keywords=a;b;',
  'Keywords[de]=x;',
  'Icon=app.png',
  'Icon=app',
  'Icon[de]=app-de',
  'Terminal=false',
  'Terminal=maybe',
  'NoDisplay=1',
  'StartupNotify=true',
  'Version=1.0',
  'Version=2.3.4',
  'Version=1.5',
  'Categories=Utility;',
  'Categories=Utility;Nope;IDE;',
  'Categories=Bogus',
  'OnlyShowIn=GNOME;Foo;',
  'NotShowIn=DDE;',
  'MimeType=text/plain;foo;x-scheme-handler/http;',
  'MimeType=nothing',
  'Encoding=UTF-8',
  'MiniIcon=x',
  'SingleMainWindow=true',
  'URL=https://example.invalid/',
  'Frobnicate=1',
  'X-Vendor-Thing=ok',
  'DBusActivatable=true',
  'Exec[de]=/bin/sh -c evil',
  'TryExec[fr]=/bin/sh',
  'Path=/tmp',
  'StartupWMClass=App',
  'Implements=org.example.Iface;',
  'Name=Duplicate',
  'Actions=one;two;three;',
  'Actions=one',
  'Actions=',
];

const ACTION_LINES = [
  'Name=Act',
  'Exec=app --act',
  'Icon=act',
  'Comment=not allowed here',
  'Name[de]=Akt',
  'X-Ok=1',
];

function randomEntry(next: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const lines = ['[Desktop Entry]'];
  if (next() < 0.8) lines.push('Exec=app %U');
  const n = Math.floor(next() * 10);
  for (let i = 0; i < n; i++) lines.push(pick(MAIN_LINES));
  for (const id of ['one', 'two', 'stray']) {
    if (next() < 0.5) continue;
    lines.push('', `[Desktop Action ${id}]`);
    for (const l of ACTION_LINES) if (next() < 0.6) lines.push(l);
  }
  if (next() < 0.3) lines.push('', '[Vendor Group]', 'Key=value');
  if (next() < 0.3) lines.push('', '[X-Vendor]', 'Exec=/bin/sh -c x', 'Exec[it]=/bin/sh');
  return lines.join('\n') + '\n';
}

void describe('desktop entry repair', () => {
  const dirs: Awaited<ReturnType<typeof tempDir>>[] = [];
  after(async () => {
    for (const d of dirs) await d.cleanup();
  });

  void test('400 random broken entries: every one written passes desktop-file-validate', async () => {
    const tmp = await tempDir();
    dirs.push(tmp);
    const files: string[] = [];
    let refused = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const text = randomEntry(seededRandom(seed));
      const entry = parseDesktopEntry(text);
      const repaired = repairDesktopEntry(entry, 'app', []);
      if (!repaired.ok) {
        assert.match(repaired.reason, /not an application/);
        refused++;
        continue;
      }
      rewriteDesktopEntry(entry, {
        appName: 'app',
        execPath: '/opt/apps/app.AppImage',
        execArgs: [],
        env: {},
        iconName: seed % 2 ? 'appimage-keeper-app' : undefined,
      });
      const file = join(tmp.dir, `seed-${seed}.desktop`);
      await writeFile(file, serializeDesktopEntry(entry));
      files.push(file);
    }
    assert.ok(files.length > 300, `${files.length} written, ${refused} refused`);
    const res = spawnSync('desktop-file-validate', files, { encoding: 'utf8' });
    const errors = `${res.stdout}${res.stderr}`.split('\n').filter((l) => /error/i.test(l));
    assert.deepEqual(errors.slice(0, 10), []);
    assert.equal(res.status, 0);
  });

  void test('what was changed is reported; an entry that needs nothing gets no warning', () => {
    const warnings: string[] = [];
    const entry = parseDesktopEntry('[Desktop Entry]\nName[de]=X\nExec=app\nFoo=1\nTerminal=maybe\n');
    assert.deepEqual(repairDesktopEntry(entry, 'app', warnings), { ok: true });
    assert.deepEqual(warnings, [
      'the desktop entry had no Type; added Type=Application',
      'the desktop entry had no Name; added Name=app',
      'dropped what the Desktop Entry specification does not allow: [Desktop Entry] Foo, [Desktop Entry] Terminal=maybe',
    ]);
    const clean: string[] = [];
    repairDesktopEntry(
      parseDesktopEntry('[Desktop Entry]\nType=Application\nName=A\nExec=a\nCategories=Utility;\n'),
      'a',
      clean,
    );
    assert.deepEqual(clean, []);
  });
});
