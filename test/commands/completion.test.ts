// Shell completion run for real: the generated bash script is sourced into bash and its function
// called with COMP_WORDS/COMP_CWORD as bash would; the zsh script's candidate function runs in zsh the
// same way (zsh's own compadd needs a live line editor, so the test reads what it would be given).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI_PATH, runCli } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

let h: TmpHome;
let env: NodeJS.ProcessEnv;
let bashScript = '';
let zshScript = '';

before(async () => {
  h = await makeTmpHome();
  // The scripts call `appimage-keeper list --names`: put the built CLI on PATH under that name.
  const bin = join(h.root, 'bin');
  await mkdir(bin, { recursive: true });
  const wrapper = join(bin, 'appimage-keeper');
  await writeFile(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${CLI_PATH}" "$@"\n`);
  await chmod(wrapper, 0o755);
  env = { ...h.env, PATH: `${bin}:${h.env.PATH ?? ''}` };
  const recipe = (name: string): string =>
    `name: ${name}\nstrategy:\n  strategy: direct\n  url: https://dl.test/${name}.AppImage\n  check_method: etag\n`;
  await h.writeRecipe('obsidian', recipe('obsidian'));
  await h.writeRecipe('krita', recipe('krita'));
  bashScript = (await runCli(['completion', 'bash'], { env })).stdout;
  zshScript = (await runCli(['completion', 'zsh'], { env })).stdout;
});
after(async () => {
  await h.cleanup();
});

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** What bash completes for `line` (the cursor at its end; a trailing space starts a new word). */
function bashComplete(line: string): string[] {
  const words = line.split(' ');
  const program = [
    bashScript,
    `COMP_WORDS=(${words.map(quote).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_appimage_keeper',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', program], {
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\n').filter(Boolean).sort();
}

const hasZsh = spawnSync('zsh', ['-c', 'true']).status === 0;

/** What the zsh script's candidate function offers for `line`, before zsh filters by prefix. */
function zshCandidates(line: string): { words: string[]; mode: string } {
  const words = line.split(' ');
  // Everything but the last block, which registers the function with compsys.
  const functions = zshScript.slice(0, zshScript.indexOf('if [[ "${zsh_eval_context'));
  const program = [
    functions,
    'setopt ksharrays',
    `COMP_WORDS=(${words.map(quote).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_appimage_keeper_candidates',
    'print -r -- "$_ak_mode"',
    'print -rl -- ${=_ak_words}',
  ].join('\n');
  const r = spawnSync('zsh', ['-f', '-c', program], { env, encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  const [mode = '', ...rest] = r.stdout.split('\n');
  const cur = words.at(-1) ?? '';
  return { mode, words: rest.filter((w) => w && w.startsWith(cur)).sort() };
}

void describe('bash completion', () => {
  void test('update --<TAB> offers only update’s flags', () => {
    assert.deepEqual(bashComplete('appimage-keeper update --'), [
      '--dry-run',
      '--force',
      '--help',
      '--locked',
      '--self',
      '--show-all',
    ]);
    assert.deepEqual(bashComplete('appimage-keeper remove --'), ['--help', '--orphans', '--purge']);
  });

  void test('a global flag after the command still completes when no own flag fits', () => {
    assert.deepEqual(bashComplete('appimage-keeper update --js'), ['--json']);
  });

  void test('schedule install --every <TAB> offers intervals; schedule <TAB> its actions', () => {
    const every = bashComplete('appimage-keeper schedule install --every ');
    for (const v of ['daily', 'weekly', 'hourly', '6h']) assert.ok(every.includes(v), every.join(' '));
    assert.ok(!every.includes('--every'));
    assert.deepEqual(bashComplete('appimage-keeper schedule '), ['install', 'remove', 'status']);
    assert.deepEqual(bashComplete('appimage-keeper schedule install '), []);
  });

  void test('commands after global flags, app names, and values of init --strategy', () => {
    const commands = bashComplete('appimage-keeper ');
    for (const c of ['update', 'check', 'self-update', 'version']) assert.ok(commands.includes(c), c);
    assert.deepEqual(bashComplete('appimage-keeper -q --config-dir /tmp up'), ['update']);
    assert.deepEqual(bashComplete('appimage-keeper --json update '), ['krita', 'obsidian']);
    assert.deepEqual(bashComplete('appimage-keeper update krita o'), ['obsidian']);
    assert.deepEqual(bashComplete('appimage-keeper init --strategy '), ['direct', 'forge', 'script']);
    assert.deepEqual(bashComplete('appimage-keeper completion '), ['bash', 'fish', 'zsh']);
  });

  void test('app names come from the --config-dir on the command line', async () => {
    const other = join(h.root, 'other-config');
    await mkdir(join(other, 'apps'), { recursive: true });
    await writeFile(
      join(other, 'apps', 'gimp.yml'),
      'name: gimp\nstrategy:\n  strategy: direct\n  url: https://dl.test/g.AppImage\n  check_method: etag\n',
    );
    assert.deepEqual(bashComplete(`appimage-keeper --config-dir ${other} check `), ['gimp']);
  });
});

void describe('zsh completion', () => {
  void test('the script parses', { skip: !hasZsh && 'zsh is not installed' }, () => {
    const r = spawnSync('zsh', ['-n'], { input: zshScript, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  void test(
    'works after a global flag and offers each command’s own flags',
    { skip: !hasZsh && 'zsh is not installed' },
    () => {
      assert.deepEqual(zshCandidates('appimage-keeper --json up').words, ['update']);
      assert.deepEqual(zshCandidates('appimage-keeper -q --config-dir /tmp upd').words, ['update']);
      assert.deepEqual(zshCandidates('appimage-keeper --json update ').words, ['krita', 'obsidian']);
      assert.deepEqual(zshCandidates('appimage-keeper update --').words, [
        '--dry-run',
        '--force',
        '--help',
        '--locked',
        '--self',
        '--show-all',
      ]);
      assert.ok(zshCandidates('appimage-keeper schedule install --every ').words.includes('weekly'));
      assert.equal(zshCandidates('appimage-keeper --config-dir ').mode, 'dirs');
    },
  );
});
