import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError, ExitCode, formatIssue } from '../../src/core/errors.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';
import { load } from './workspace-fixture.js';

// [line, col, message pattern, hint pattern?] of each expected issue, in file order.
type Expected = [number, number, RegExp, RegExp?][];

const FORGE = 'strategy:\n  strategy: forge\n  repository: https://github.com/o/r\n';
const DIRECT = 'strategy:\n  strategy: direct\n  url: https://example.com/a.AppImage\n  check_method: etag\n';

const RECIPES: [string, string, Expected][] = [
  ['yaml-tab', 'name: a\n\tstrategy: {}\n', [[2, 1, /^Tabs are not allowed as indentation/]]],
  ['yaml-dup-key', `name: a\n${DIRECT}name: b\n`, [[6, 1, /^Map keys must be unique/]]],
  [
    'unknown-top',
    `name: a\n${DIRECT}symlnk_dir: /x\n`,
    [[6, 1, /^unknown key "symlnk_dir"$/, /did you mean "symlink_dir"\?/]],
  ],
  [
    'unknown-in-strategy',
    `name: a\n${FORGE}  asset_match: "*.AppImage"\n  check_methd: etag\n`,
    [[6, 3, /^unknown key "check_methd"$/]],
  ],
  [
    'unknown-in-strategy-hint',
    `name: a\nstrategy:\n  strategy: direct\n  url: https://e.example/a\n  chek_method: etag\n`,
    [
      // A missing enum field is reported on its strategy block with the allowed values.
      [3, 3, /^strategy\.check_method: must be "etag" or "last-modified"$/],
      [5, 3, /^unknown key "chek_method"$/, /did you mean "check_method"\?/],
    ],
  ],
  [
    'config-only-field',
    `name: a\n${DIRECT}auto_self_update: true\n`,
    [[6, 1, /^auto_self_update: only config\.yml reads this field/, /move auto_self_update to config\.yml/]],
  ],
  [
    'wrong-type',
    `name: a\n${DIRECT}create_symlinks: "yes"\n`,
    [[6, 18, /^create_symlinks: must be true or false, not text$/]],
  ],
  [
    'wrong-type-list',
    `name: a\n${DIRECT}desktop_exec_args: --x\n`,
    [[6, 20, /^desktop_exec_args: must be a list, not text$/]],
  ],
  [
    'top-level-key-under-strategy',
    `name: a\n${FORGE}  create_symlinks: true\n`,
    [
      [
        5,
        3,
        /^unknown key "create_symlinks"$/,
        /^create_symlinks belongs at the top level of the recipe, not under strategy: unindent it$/,
      ],
    ],
  ],
  [
    'strategy-key-at-top-level',
    `name: a\n${FORGE}asset_match: "*.AppImage"\n`,
    [
      [
        5,
        1,
        /^unknown key "asset_match"$/,
        /^asset_match belongs under strategy: \(a forge field\); indent it there$/,
      ],
    ],
  ],
  [
    'strategy-word-from-other-tools',
    'name: a\nstrategy:\n  strategy: github\n  repository: https://github.com/o/r\n',
    [
      [
        3,
        13,
        /^strategy\.strategy: must be one of "forge", "direct", "script"$/,
        /^use "strategy: forge": GitHub releases are the forge strategy$/,
      ],
    ],
  ],
  ['missing-name', `${DIRECT}`, [[1, 1, /^missing required field "name"$/]]],
  ['missing-strategy', 'ignore: false\nname: a\n', [[1, 1, /^missing required field "strategy"$/]]],
  [
    'bad-kind',
    'name: a\nstrategy:\n  strategy: torrent\n',
    [[3, 13, /^strategy\.strategy: must be one of "forge", "direct", "script"$/]],
  ],
  [
    'bad-glob',
    `name: a\n${FORGE}  asset_match: "[abc"\n`,
    [[5, 16, /^strategy\.asset_match: invalid glob: /]],
  ],
  [
    'bad-inner-glob',
    `name: a\ninner_asset_match: "x[y"\n${FORGE}  asset_match: "*.zip"\n`,
    [[2, 20, /^inner_asset_match: invalid glob: /]],
  ],
  [
    'bad-regex',
    `name: a\n${FORGE}  asset_match_regex: "x(abc"\n`,
    [[5, 24, /^strategy\.asset_match_regex: missing closing "\)"/, /RE2 syntax/]],
  ],
  [
    // Escapes in a double-quoted scalar take two source characters: the column still lands on "\1".
    'regex-backreference',
    `name: a\n${FORGE}  asset_match_regex: "(a)\\\\1"\n`,
    [[5, 26, /^strategy\.asset_match_regex: backreferences .* not supported$/]],
  ],
  [
    'regex-lookahead',
    `name: a\n${FORGE}  asset_match_regex: foo(?=bar)\n`,
    [[5, 25, /^strategy\.asset_match_regex: lookahead .* not supported$/]],
  ],
  [
    'regex-lookbehind',
    `name: a\n${FORGE}  asset_match_regex: 'x(?<!y)z'\n`,
    [[5, 24, /^strategy\.asset_match_regex: lookbehind .* not supported$/]],
  ],
  [
    'regex-nested-class',
    `name: a\n${FORGE}  asset_match_regex: "[a[bc]]"\n`,
    [[5, 25, /^strategy\.asset_match_regex: a "\[" inside a character class is a nested class in Rust/]],
  ],
  [
    'regex-class-intersection',
    `name: a\n${FORGE}  asset_match_regex: "[a-z&&[^aeiou]]"\n`,
    [[5, 27, /^strategy\.asset_match_regex: class set operations \("&&"\)/]],
  ],
  [
    'regex-verbose-flag',
    `name: a\n${FORGE}  asset_match_regex: "(?ix)a b"\n`,
    [[5, 26, /^strategy\.asset_match_regex: the verbose flag x/]],
  ],
  [
    'repo-not-url',
    'name: a\nstrategy:\n  strategy: forge\n  repository: github.com/o/r\n  asset_match: "*"\n',
    [[4, 15, /^strategy\.repository: must be an http:\/\/ or https:\/\/ URL$/]],
  ],
  [
    'repo-no-path',
    'name: a\nstrategy:\n  strategy: forge\n  repository: https://github.com/o\n  asset_match: "*"\n',
    [[4, 15, /^strategy\.repository: must be a repository URL/]],
  ],
  [
    'url-not-http',
    'name: a\nstrategy:\n  strategy: direct\n  url: ftp://e.example/a\n  check_method: etag\n',
    [[4, 8, /^strategy\.url: must be an http:\/\/ or https:\/\/ URL$/]],
  ],
  [
    'bad-check-method',
    'name: a\nstrategy:\n  strategy: direct\n  url: https://e.example/a\n  check_method: sha256\n',
    [[5, 17, /^strategy\.check_method: must be "etag" or "last-modified"$/]],
  ],
  [
    'naming-slash',
    `name: a\nnaming_format: "x/{name}"\n${DIRECT}`,
    [[2, 16, /^naming_format: must not contain "\/"/]],
  ],
  [
    'naming-placeholder',
    `name: a\nnaming_format: "{name}-{arch}"\n${DIRECT}`,
    [[2, 16, /^naming_format: unknown placeholder \{arch\}/]],
  ],
  [
    'proxy-prefix-item',
    `name: a\nhub_proxy_prefix:\n  - https://p.example/\n  - not a url\n${DIRECT}`,
    [[4, 5, /^hub_proxy_prefix\.1: must be an http:\/\/ or https:\/\/ URL$/]],
  ],
  [
    'proxy-prefix-type',
    `name: a\nhub_proxy_prefix: 42\n${DIRECT}`,
    [[2, 19, /^hub_proxy_prefix: must be "all", an http\(s\) URL, or a list of http\(s\) URLs$/]],
  ],
  [
    'script-missing',
    'name: a\nstrategy:\n  strategy: script\n  script_path: nothere.sh\n',
    [[4, 16, /^strategy\.script_path: "nothere\.sh" does not exist/]],
  ],
  [
    'script-not-a-file',
    'name: a\nstrategy:\n  strategy: script\n  script_path: /dev/null\n',
    [[4, 16, /^strategy\.script_path: "\/dev\/null" is not a regular file/]],
  ],
  [
    'zsync-auto-direct',
    `name: a\nzsync: auto\n${DIRECT}`,
    [[2, 8, /^zsync: "auto" needs the forge strategy$/]],
  ],
  ['name-control', `name: "a\\tb"\n${DIRECT}`, [[1, 9, /^name: contains the control character \\t$/]]],
  ['name-blank', `name: "  "\n${DIRECT}`, [[1, 7, /^name: must not be empty$/]]],
  [
    'release-age-syntax',
    `name: a\n${DIRECT}min_release_age: 1.5d\n`,
    [[6, 18, /^min_release_age: must be a duration like 30m, 12h, 3d or 1w \(or 0 for none\)$/]],
  ],
  [
    'release-age-compound',
    `name: a\n${DIRECT}min_release_age: 1d12h\n`,
    [[6, 18, /^min_release_age: must be a duration like 30m/]],
  ],
  [
    'release-age-bound',
    `name: a\n${DIRECT}min_release_age: 53w\n`,
    [[6, 18, /^min_release_age: must be at most 365d$/]],
  ],
  [
    'release-age-long',
    `name: a\n${DIRECT}min_release_age: "${'9'.repeat(5000)}d"\n`,
    [[6, 18, /^min_release_age: must be a duration like 30m/]],
  ],
  [
    'release-age-negative',
    `name: a\n${DIRECT}min_release_age: -3\n`,
    [[6, 18, /^min_release_age: must be a duration/]],
  ],
  [
    'zsync-with-delta-off',
    `name: a\nzsync: true\ndelta: off\n${DIRECT}`,
    [[3, 8, /^delta: off turns the zsync setting off; remove zsync or set delta to auto or zsync$/]],
  ],
  [
    'delta-unknown',
    `name: a\ndelta: rsync\n${DIRECT}`,
    [[2, 8, /^delta: must be auto, zsync, blockmap or off$/]],
  ],
  [
    'bad-env-name',
    `name: a\ndesktop_env:\n  "BAD-NAME": 1\n${DIRECT}`,
    [[3, 3, /^desktop_env\.BAD-NAME: must be a valid environment variable name$/]],
  ],
  [
    // The audit's case: the next failed update deleted the installed app as a stale temp file.
    'naming-reserved',
    `name: a\nnaming_format: ".appimage-keeper-{name}-x.AppImage"\n${DIRECT}`,
    [[2, 16, /^naming_format: file names starting with "\.appimage-keeper" are reserved/]],
  ],
  [
    'naming-reserved-completed-by-name',
    `name: a\nnaming_format: ".{name}.AppImage"\n${DIRECT}`,
    [[2, 16, /^naming_format: file names starting with "\.appimage-keeper" are reserved/]],
  ],
  [
    'naming-too-long',
    `name: a\nnaming_format: "{name}-{version}-${'x'.repeat(100)}"\n${DIRECT}`,
    [[2, 16, /^naming_format: file names can reach 266 bytes .* the limit is 255$/]],
  ],
  [
    'desktop-arg-escape',
    `name: a\ndesktop_exec_args:\n  - "--a\\e[31m"\n${DIRECT}`,
    [
      [
        3,
        9,
        /^desktop_exec_args\.0: contains the control character \\x1b, which a desktop entry cannot hold$/,
      ],
    ],
  ],
  [
    'desktop-arg-nul',
    `name: a\ndesktop_exec_args: ["ok", "a\\0"]\n${DIRECT}`,
    [[2, 29, /^desktop_exec_args\.1: contains the control character \\x00/]],
  ],
  [
    'desktop-env-newline',
    `name: a\ndesktop_env:\n  FOO: "a\\nb"\n${DIRECT}`,
    [[3, 10, /^desktop_env\.FOO: contains the control character \\n/]],
  ],
  ['not-a-mapping', '- name: a\n', [[1, 1, /^expected a mapping of keys to values$/]]],
];

void describe('recipe errors are positioned as file:line:col', () => {
  let h: TmpHome;
  before(async () => {
    h = await makeTmpHome();
    for (const [id, text] of RECIPES) await h.writeRecipe(id, text);
  });
  after(async () => {
    await h.cleanup();
  });

  void test('every case is reported with the exact positions', async () => {
    const ws = await load(h);
    assert.equal(ws.apps.length, RECIPES.length);
    for (const [id, , expected] of RECIPES) {
      const file = join(h.appsDir, id, `${id}.yml`);
      const app = ws.apps.find((a) => a.file === file);
      assert.ok(app && !app.ok, `${id} should fail`);
      const err = app.error;
      assert.ok(err instanceof ConfigError, `${id}: ${err.message}`);
      assert.equal(err.exitCode, ExitCode.appFailed, id);
      assert.equal(
        err.issues.length,
        expected.length,
        `${id}: ${err.issues.map((i) => formatIssue(i)).join(' | ')}`,
      );
      expected.forEach(([line, col, message, hint], i) => {
        const issue = err.issues[i];
        assert.ok(issue, id);
        assert.equal(issue.file, file, id);
        assert.deepEqual([issue.line, issue.col], [line, col], `${id}: ${formatIssue(issue)}`);
        assert.match(issue.message, message, id);
        if (hint) assert.match(issue.hint ?? '', hint, id);
        assert.ok(err.message.includes(`${file}:${line}:${col}: `), `${id}: ${err.message}`);
      });
    }
  });
});

const CONFIGS: [string, string, Expected][] = [
  ['yaml-quote', 'show_all: true\nstorage_dir: "/x\n', [[3, 1, /^Missing closing "quote/]]],
  [
    'unknown',
    'show_all: true\nsegmented_download: false\n',
    [[2, 1, /^unknown key/, /"segmented_downloads"/]],
  ],
  ['unknown-far', 'show_all: true\nfrobnicate: 1\n', [[2, 1, /^unknown key "frobnicate"$/]]],
  ['range', 'download_connections: 99\n', [[1, 23, /^download_connections: must be at most 16$/]]],
  ['int', 'download_connections: 2.5\n', [[1, 23, /^download_connections: must be a whole number/]]],
  ['api-url', 'show_all: true\nhub_release_api_url: api.example.com\n', [[2, 22, /must be an http/]]],
  ['proxy', 'hub_proxy_prefix: []\n', [[1, 19, /hub_proxy_prefix/]]],
  ['naming-reserved', 'naming_format: ".appimage-keeper-{name}"\n', [[1, 16, /are reserved/]]],
  ['not-mapping', 'just a string\n', [[1, 1, /^expected a mapping/]]],
];

void describe('config.yml errors stop the run (exit 2) with positions', () => {
  for (const [id, text, expected] of CONFIGS) {
    void test(id, async () => {
      const h = await makeTmpHome();
      try {
        const file = await h.writeConfig(text);
        const err = await load(h).catch((e: unknown) => e);
        assert.ok(err instanceof ConfigError, String(err));
        assert.equal(err.exitCode, ExitCode.usage);
        assert.equal(err.issues.length, expected.length, err.message);
        expected.forEach(([line, col, message, hint], i) => {
          const issue = err.issues[i];
          assert.ok(issue);
          assert.equal(issue.file, file);
          assert.deepEqual([issue.line, issue.col], [line, col], formatIssue(issue));
          assert.match(issue.message, message);
          if (hint) assert.match(issue.hint ?? '', hint);
        });
      } finally {
        await h.cleanup();
      }
    });
  }
});
