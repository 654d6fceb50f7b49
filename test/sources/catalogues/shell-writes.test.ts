// The SITE scanner against bash itself: scripts built from harmless builtins (`:`, `true`, `echo`
// to /dev/null…) in every construct that can hide an assignment are sourced by a real bash, and
// whenever the scanner accepts one (every write a plain top-level assignment of one value), bash
// ends with that value; with no write found, bash leaves SITE unset. Mutated scripts never throw.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { scanVariableWrites } from '../../../src/sources/catalogues/shell-writes.js';
import { seededRandom } from '../../helpers/seeded-random.js';

// What a plain script is made of: top-level SITEs and harmless commands.
const PLAIN = [
  'SITE="o/r1"',
  "SITE='o/r1'",
  'SITE=o/r2',
  '(( n = 1 + 2 ))',
  '[[ -n "$x" && x =~ ^(a|b)$ ]] || :',
  'x="$(echo ")")"; y=${x:-"}"}',
  'APP=tool; z=(a b c)',
  'echo $(( 2 > 1 )) 2>/dev/null >/dev/null',
];

// Each runs nothing but builtins; `o/evil` marks a value the top level never sets plainly.
const HIDING = [
  "cat >/dev/null <<'EOF'\nSITE=o/evil\nEOF",
  'cat >/dev/null <<-EOF\n\tSITE=o/evil\n\tEOF',
  'cat >/dev/null <<EOF\n${SITE:=o/evil}\nEOF',
  'cat >/dev/null <<A; cat >/dev/null <<"B"\nSITE=o/evil\nA\nSITE=o/evil\nB',
  'f1() { SITE=o/evil; }',
  'f2() {\n  SITE=o/evil\n}\nf2',
  'function f3 {\n  SITE=o/evil\n}',
  'f4() ( SITE=o/evil )\nf4',
  'if false; then SITE=o/evil; fi',
  'if true; then\n  SITE=o/evil\nelse\n  :\nfi',
  'case x in\n  x) SITE=o/evil ;;\n  *) : ;;\nesac',
  'case x in (y) SITE=o/evil ;; esac',
  '( SITE=o/evil )',
  '{ SITE=o/evil; }',
  '# SITE=o/evil',
  'echo "\nSITE=o/evil\n" >/dev/null',
  "echo 'SITE=o/evil' >/dev/null",
  'echo a \\\nSITE=o/evil >/dev/null',
  'true && SITE=o/evil',
  'false && SITE=o/evil',
  'false || SITE=o/evil',
  'SITE=o/evil true | :',
  'SITE=o/evil :',
  'export SITE=o/evil',
  ': "${SITE:=o/evil}"',
  'x=$(SITE=o/evil; echo "$x")',
  'x=`SITE=o/evil`',
  'for SITE in o/evil; do :; done',
  'while false; do SITE=o/evil; done',
  'read -r SITE <<< o/evil',
  'unset SITE',
  'printf -v SITE %s o/evil',
  "eval 'SITE=o/evil'",
];

const pick = (random: () => number, from: string[]): string => from[Math.floor(random() * from.length)] ?? '';

function script(random: () => number): string {
  const n = 2 + Math.floor(random() * 6);
  return `${Array.from({ length: n }, () => pick(random, random() < 0.7 ? PLAIN : HIDING)).join('\n')}\n`;
}

// The value the scanner says bash ends with: `accepted`, `unset`, or undefined when it refuses.
function scannerSays(text: string): { accepted: string } | 'unset' | undefined {
  const scan = scanVariableWrites(text, 'SITE');
  if (!scan.ok) return undefined;
  if (scan.writes.length === 0) return 'unset';
  const [first] = scan.writes;
  const plain = scan.writes.every((w) => w.how === 'assignment' && !w.inside && w.value === first?.value);
  return plain && first?.value !== undefined ? { accepted: first.value } : undefined;
}

void test('wherever the scanner accepts a SITE, bash sourcing the script ends with that SITE', async () => {
  const random = seededRandom(27);
  const scripts = Array.from({ length: 300 }, () => script(random));
  const dir = await mkdtemp(join(tmpdir(), 'ak-shell-'));
  try {
    await Promise.all(scripts.map((s, i) => writeFile(join(dir, `${String(i).padStart(3, '0')}.sh`), s)));
    // One bash for all (a process each is slow on a busy machine): SITE is unset before each script,
    // and a function a script defines is only ever called by that script.
    const loop = `for f in "$1"/*.sh; do unset SITE; . "$f" >/dev/null 2>&1; printf '%s\\n' "\${SITE-<unset>}"; done`;
    const run = spawnSync('bash', ['-c', loop, 'bash', dir], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    assert.equal(run.status, 0, run.stderr);
    const finals = run.stdout.split('\n');
    let accepted = 0;
    let unset = 0;
    scripts.forEach((text, i) => {
      const says = scannerSays(text);
      if (says === undefined) return;
      if (says === 'unset') {
        unset++;
        assert.equal(finals[i], '<unset>', `script ${i}:\n${text}`);
      } else {
        accepted++;
        assert.equal(finals[i], says.accepted, `script ${i}:\n${text}`);
      }
    });
    // Not vacuous: a fair share of the scripts are accepted, with and without a SITE.
    assert.ok(accepted >= 20 && unset >= 5, `accepted ${accepted}, unset ${unset}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

void test('mutated scripts (quotes, brackets, operators inserted or cut anywhere) are read or refused, never thrown on', () => {
  const random = seededRandom(2702);
  const base = [...PLAIN, ...HIDING].join('\n');
  const specials = [
    '"',
    "'",
    '`',
    '$',
    '(',
    ')',
    '{',
    '}',
    ';',
    '|',
    '&',
    '<',
    '>',
    '<<',
    '\n',
    '#',
    '\\',
    '$(',
    '${',
    '[[',
  ];
  for (let i = 0; i < 1000; i++) {
    let text = base;
    for (let k = 0; k < 1 + Math.floor(random() * 4); k++) {
      const at = Math.floor(random() * text.length);
      text =
        random() < 0.5
          ? text.slice(0, at) + specials[Math.floor(random() * specials.length)] + text.slice(at)
          : text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 8));
    }
    const r = scanVariableWrites(text, 'SITE');
    assert.ok(r.ok || (r.why.length > 0 && r.line >= 1), `mutation ${i}`);
  }
});
