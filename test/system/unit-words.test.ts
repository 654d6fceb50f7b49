/**
 * Reading back what `schedule install` writes: ExecStart= and Environment= words survive any path
 * (seeded random round trips), and hand-edited or hostile service files are read or refused, never
 * guessed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseInterval } from '../../src/system/schedule/interval.js';
import { readServiceCommands } from '../../src/system/schedule/service-file.js';
import { splitUnitWords, systemdEnvQuote, systemdQuote } from '../../src/system/schedule/unit-words.js';
import { renderUnits } from '../../src/system/schedule/units.js';
import { seededRandom } from '../helpers/seeded-random.js';

// Characters that matter to systemd's parser, plus ordinary and non-ASCII ones.
const ALPHABET = [...' \t"\'\\%$;#=@-:+!~*?[]{}()&|<>`\n\r/.aZ09_', 'é', '日', '🙂', '\x07', '\x1b'];

function randomWord(random: () => number): string {
  const length = Math.floor(random() * 12);
  let word = '';
  for (let i = 0; i < length; i++) word += ALPHABET[Math.floor(random() * ALPHABET.length)] ?? '';
  return word;
}

function randomArgv(random: () => number): string[] {
  return Array.from({ length: 1 + Math.floor(random() * 5) }, () => randomWord(random));
}

void describe('ExecStart= and Environment= words', () => {
  void test('quoting then splitting gives back every argument (500 seeded cases)', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const argv = randomArgv(seededRandom(seed));
      const line = argv.map(systemdQuote).join(' ');
      assert.deepEqual(splitUnitWords(line, { dollar: true }), { ok: true, words: argv }, `seed ${seed}`);
      const env = argv.map(systemdEnvQuote).join(' ');
      assert.deepEqual(splitUnitWords(env, { dollar: false }), { ok: true, words: argv }, `seed ${seed}`);
    }
  });

  void test('a rendered service reads back as its program, config dir and PATH (300 seeded cases)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = seededRandom(seed);
      const program = ['/' + randomWord(random), ...(random() < 0.5 ? ['/' + randomWord(random)] : [])];
      const configDir = random() < 0.5 ? '/' + randomWord(random) : undefined;
      const unitPath =
        random() < 0.5 ? ['/usr/bin', '/' + randomWord(random).replaceAll(':', '')].join(':') : undefined;
      const { service } = renderUnits('ak', { program, configDir, unitPath }, parseInterval('daily'));
      const argv = [...program, ...(configDir ? ['--config-dir', configDir] : []), '--quiet', 'update'];
      assert.deepEqual(
        readServiceCommands(service),
        { ok: true, commands: [argv], path: unitPath },
        `seed ${seed}`,
      );
    }
  });

  void test('systemd syntax we did not write: single quotes, mid-word quotes, C escapes, prefixes', () => {
    assert.deepEqual(splitUnitWords(`'/a b'  c"d e"f \\x41\\s\\u00e9 \\101 ""`, { dollar: true }), {
      ok: true,
      words: ['/a b', 'cd ef', 'A é', 'A', ''],
    });
    const text = [
      '[Unit]',
      'ExecStart=/not/the/service',
      '[Service]',
      '# ExecStart=/commented',
      'ExecStart=/first',
      'ExecStart=',
      'ExecStart=-@/usr/bin/prog argv0 \\',
      '  --flag "x y"',
      '; Environment=PATH=/ignored',
      'Environment=A=1 "PATH=/p q:/usr/bin"',
      '[Install]',
      'Environment=PATH=/not/service',
    ].join('\n');
    assert.deepEqual(readServiceCommands(text), {
      ok: true,
      commands: [['/usr/bin/prog', '--flag', 'x y']],
      path: '/p q:/usr/bin',
    });
  });

  void test('what only systemd can resolve is refused with the reason', () => {
    const cases: [string, RegExp][] = [
      ['ExecStart="/a b', /unterminated quote/],
      ['ExecStart=%h/bin/appimage-keeper update', /specifier %h/],
      ['ExecStart=/bin/x $HOME', /environment variable/],
      ['ExecStart=/bin/x ${HOME}', /environment variable/],
      ['ExecStart=/bin/x \\q', /unsupported escape/],
      ['ExecStart=/bin/x \\x00', /unsupported escape/],
      ['ExecStart=/bin/\0x', /NUL/],
      ['ExecStart=-', /names no program/],
      ['Environment="PATH=/a', /Environment= on line 2 has an unterminated quote/],
    ];
    for (const [line, reason] of cases) {
      const r = readServiceCommands(`[Service]\n${line}\nExecStart=/ok\n`);
      assert.equal(r.ok, false, line);
      assert.match(r.ok ? '' : r.reason, reason, line);
    }
    assert.deepEqual(readServiceCommands('[Service]\nType=oneshot\n'), {
      ok: false,
      reason: 'it has no ExecStart= line',
    });
    // A continuation at the end of the file still counts, as a lone carriage return ends a line.
    assert.deepEqual(readServiceCommands('[Service]\rExecStart=/a \\\n b \\'), {
      ok: true,
      commands: [['/a', 'b']],
      path: undefined,
    });
    // `$` has no meaning in Environment=: kept as written.
    assert.deepEqual(readServiceCommands('[Service]\nEnvironment="PATH=/$x"\nExecStart=/a\n'), {
      ok: true,
      commands: [['/a']],
      path: '/$x',
    });
  });
});
