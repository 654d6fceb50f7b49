// docs/cli.md and the man page are generated from the registered commands, so they cannot drift:
// the committed reference must match a fresh render, and both name every command and flag.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CLI_DOC_PATH, renderCliDocs, renderManPage } from '../../scripts/cli-docs.js';
import { describeProgram } from '../../src/main.js';
import { generatedDocTests } from '../helpers/doc-script.js';
import { REPO_ROOT } from '../helpers/run-cli.js';

void describe('docs/cli.md', () => {
  generatedDocTests({
    script: 'cli-docs.ts',
    path: CLI_DOC_PATH,
    what: 'commands',
    stale: (text) => text.replace('--dry-run', '--dryrun'),
  });

  void test('names every command, every flag and two or three examples per command', async () => {
    const model = describeProgram();
    const text = await renderCliDocs(model);
    for (const f of model.globalFlags) assert.ok(text.includes(`\`${f.flags}\``), f.flags);
    for (const c of model.commands) {
      assert.ok(text.includes(`## \`${c.name}\``), c.name);
      for (const f of c.flags) assert.ok(text.includes(`\`${f.flags}\``), `${c.name} ${f.flags}`);
      assert.ok(c.examples.length >= 2 && c.examples.length <= 3, `${c.name}: ${c.examples.length} examples`);
      for (const [command] of c.examples) assert.ok(text.includes(command), command);
    }
  });
});

void describe('man page', () => {
  void test('is roff with every command, flag and exit code', () => {
    const model = describeProgram();
    const man = renderManPage(model);
    assert.match(man, /^\.TH APPIMAGE-KEEPER 1 /);
    for (const section of ['NAME', 'SYNOPSIS', 'GLOBAL FLAGS', 'COMMANDS', 'EXIT STATUS', 'FILES'])
      assert.match(man, new RegExp(`^\\.SH ${section}$`, 'm'), section);
    for (const c of model.commands)
      assert.ok(man.includes(`.B appimage\\-keeper ${c.name.replace(/-/g, '\\-')}`), c.name);
    // No line may start with a dot or quote that roff would read as a request.
    for (const line of man.split('\n'))
      if (/^[.']/.test(line)) assert.match(line, /^\.(TH|SH|SS|B|I|TP|PP|RS|RE|nf|fi)( |$)/, line);
  });

  void test('the build writes it to dist/ and package.json installs it', async () => {
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { man?: string[] };
    // An array: npm links man pages only from an array (a string is silently ignored).
    assert.deepEqual(pkg.man, ['dist/appimage-keeper.1']);
    const built = await readFile(join(REPO_ROOT, 'dist', 'appimage-keeper.1'), 'utf8').catch(() =>
      assert.fail('dist/appimage-keeper.1 is missing: run npm run build first'),
    );
    assert.equal(built, renderManPage());
    const man = spawnSync('man', ['-l', '-P', 'cat', join(REPO_ROOT, 'dist', 'appimage-keeper.1')], {
      encoding: 'utf8',
      env: { ...process.env, MANWIDTH: '100' },
    });
    if (!man.error && man.status === 0)
      assert.match(man.stdout, /appimage-keeper update \[options\] \[apps\.\.\.\]/);
  });
});
