// An AM script's SITE is read as bash sets it: here-documents, comments and strings are data; a SITE
// set anywhere but the top level, or set twice to different values, makes the script untrusted.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { amScriptSource } from '../../../src/sources/catalogues/am-script.js';
import { scanVariableWrites, SHELL_LIMITS } from '../../../src/sources/catalogues/shell-writes.js';

const API = 'version=$(curl -Ls https://api.github.com/repos/$SITE/releases | grep -i appimage | head -1)\n';

// The repository `script` names, or why it names none.
function site(script: string): string {
  const r = amScriptSource(script);
  return r.ok ? r.repository : `refused: ${r.why}`;
}

void describe('AM script: what bash never runs is not read', () => {
  void test('a SITE inside a here-document before the real one (every delimiter form) is data', () => {
    const forms = [
      'cat <<-\'EOF\' > ./AM-updater\n\tSITE="evil/first"\n\tEOF\n',
      'cat << "EOF" >> ./AM-updater\nSITE="evil/first"\nEOF\n',
      'cat <<EOF\nSITE="evil/first"\nEOF\n',
      'cat <<\\EOF | tee x\nSITE=evil/first\nEOF\n',
      'cat <<A <<B\nSITE=evil/first\nA\nSITE=evil/second\nB\n',
    ];
    for (const doc of forms) assert.equal(site(`APP=x\n${doc}SITE="good/app"\n${API}`), 'good/app', doc);
  });

  void test('a SITE in a comment, a string over several lines or an argument continued from the line before is not set', () => {
    const before = [
      '# SITE="evil/first"\n',
      'echo "\nSITE=evil/first\n"\n',
      "printf '%s\n' '\nSITE=evil/first\n'\n",
      'echo usage: \\\nSITE=evil/first\n',
      'x=$(printf "\nSITE=evil/first\n")\n',
    ];
    for (const text of before) assert.equal(site(`${text}SITE="good/app"\n${API}`), 'good/app', text);
  });

  void test('the AM template: top-level SITE, the updater written through a here-document with its own copy', () => {
    const template = [
      '#!/bin/sh',
      'set -u',
      'APP=tool',
      'SITE="owner/tool"',
      '[ -n "$APP" ] && mkdir -p "/opt/$APP/tmp" && cd "/opt/$APP/tmp" || exit 1',
      'printf "#!/bin/sh\\nset -e\\nrm -f /usr/local/bin/$APP\\n" > ../remove',
      `version=$(curl -Ls https://api.github.com/repos/$SITE/releases | sed 's/[()",{}]/ /g; s/ /\\n/g' | grep -io 'https.*appimage$' | head -1)`,
      'wget "$version" 2>/dev/null || exit 1',
      'case "$version" in',
      '  (*zsync) echo skip ;;',
      '  *) [[ $version =~ ^https://(a|b)/ ]] && echo ok ;;',
      'esac',
      "cat >> ./AM-updater << 'EOF'",
      'SITE="owner/tool"',
      'version=$(curl -Ls https://api.github.com/repos/$SITE/releases | head -1)',
      'if [ "$version" != "$version0" ]; then echo new; fi',
      'EOF',
      'chmod a+x ./AM-updater || exit 1',
      '',
    ].join('\n');
    assert.equal(site(template), 'owner/tool');
  });

  void test('the same SITE set twice at the top level is one upstream; two different ones are refused, both named', () => {
    assert.equal(site(`SITE="a/b"\nSITE='a/b'\n${API}`), 'a/b');
    const r = site(`SITE="good/app"\necho hi\nSITE="evil/app"\n${API}`);
    assert.match(
      r,
      /refused: .*sets SITE twice to different values \("good\/app" on line 1, "evil\/app" on line 3\)/,
    );
  });
});

void describe('AM script: a SITE set anywhere but the top level is refused, naming where', () => {
  const cases: [string, string, RegExp][] = [
    [
      'an uncalled function',
      'f() {\n  SITE="evil/x"\n}\n',
      /inside a function body \(from line \d\) \(line \d\)/,
    ],
    [
      'a function keyword',
      'function f {\n  SITE="evil/x"\n}\n',
      /inside a function body \(from line \d\) \(line \d\)/,
    ],
    ['a function with a subshell body', 'f() (\n  SITE="evil/x"\n)\n', /inside a function body/],
    ['if false', 'if false; then\n  SITE="evil/x"\nfi\n', /inside an if block \(from line \d\) \(line \d\)/],
    [
      'a case branch',
      'case "$1" in\n  x) SITE=evil/x ;;\n  *) : ;;\nesac\n',
      /inside a case \(from line \d\)/,
    ],
    ['a loop', 'while false; do\n  SITE=evil/x\ndone\n', /inside a loop/],
    ['a subshell', '(SITE=evil/x)\n', /inside a subshell/],
    ['a command substitution', 'v=$(SITE=evil/x; echo)\n', /inside a command substitution/],
    ['a backquoted substitution', 'v=`SITE=evil/x`\n', /inside a command substitution/],
    ['a brace group', '{ SITE=evil/x; }\n', /inside a brace group/],
    ['an && list', 'false && SITE=evil/x\n', /in an &&, \|\|, \| or & list \(line \d\)/],
    ['a pipeline', 'SITE=evil/x | cat\n', /in an &&, \|\|, \| or & list/],
    ['the background', 'SITE=evil/x &\n', /in an &&, \|\|, \| or & list/],
    ['a command prefix', 'SITE=evil/x env\n', /only for the command that follows it/],
    ['export', 'export SITE=evil/x\n', /through export/],
    ['read', 'read -r SITE < /dev/null\n', /through read/],
    ['printf -v', 'printf -v SITE %s evil/x\n', /through printf/],
    ['a for loop variable', 'for SITE in evil/x; do :; done\n', /through a for loop/],
    ['a default expansion', ': "${SITE:=evil/x}"\n', /through \$\{SITE:=…\}/],
    ['arithmetic', '(( SITE = 1 ))\n', /through arithmetic/],
    ['an unquoted here-document', 'cat <<EOF\n${SITE:=evil/x}\nEOF\n', /through \$\{SITE:=…\}/],
  ];
  for (const [what, block, where] of cases)
    void test(`${what}, before or after the real SITE`, () => {
      for (const script of [`${block}SITE="good/app"\n${API}`, `SITE="good/app"\n${block}${API}`]) {
        const r = site(script);
        assert.match(r, /^refused: its script sets SITE /, script);
        assert.match(r, where, script);
        assert.match(r, /only a SITE="owner\/repo" set at its top level is read/);
      }
    });
});

void describe('AM script: text the scanner cannot follow is refused, never guessed', () => {
  void test('unclosed quotes, blocks, substitutions and here-documents', () => {
    const broken: [string, RegExp][] = [
      ['echo "abc\nSITE=a/b\n', /a double quote from line 1 is never closed/],
      ["echo 'abc\nSITE=a/b\n", /a single quote is never closed/],
      ['if true; then\nSITE=a/b\n', /the if block from line 1 is never closed/],
      ['v=$(echo\nSITE=a/b\n', /the command substitution is never closed/],
      ['cat <<EOF\nSITE=a/b\n', /the here-document from line 1 has no end/],
      ['SITE=a/b\nfi\n', /unexpected `fi`/],
      ['SITE=a/b\n[[ -n x\n', /a \[\[ is never closed/],
    ];
    for (const [text, why] of broken) {
      const r = site(`${text}${API}`);
      assert.match(r, /^refused: its script cannot be read as shell \(line \d+: /, text);
      assert.match(r, why, text);
    }
  });

  void test('nesting and size are bounded: the stack is never exhausted, a long text is not read', () => {
    const deep = [
      '$('.repeat(10_000) + ')'.repeat(10_000),
      '${a:-'.repeat(40_000),
      `x="${'${a:-"'.repeat(30_000)}`,
      'if true; then '.repeat(10_000),
      '( '.repeat(100_000),
    ];
    for (const text of deep) {
      const r = scanVariableWrites(`SITE=a/b\n${text}`, 'SITE');
      assert.equal(r.ok, false);
      assert.match(r.ok ? '' : r.why, new RegExp(`nest more than ${SHELL_LIMITS.depth} deep`));
    }
    const long = scanVariableWrites(`SITE=a/b\n${'#'.repeat(SHELL_LIMITS.chars)}`, 'SITE');
    assert.deepEqual(long, { ok: false, why: `it is longer than ${SHELL_LIMITS.chars} characters`, line: 1 });
  });

  void test('a top-level SITE that expands something, or is a web page, names no repository', () => {
    assert.match(
      site(`SITE="$OWNER/app"\n${API}`),
      /its script's SITE \(an expansion, line 1\) is not a plain owner\/repo/,
    );
    assert.match(
      site(`SITE="https://www.example.org" SITE2="a/b"\n${API}`),
      /its script's SITE \("https:\/\/www\.example\.org", line 1\) is not a plain owner\/repo/,
    );
  });
});
