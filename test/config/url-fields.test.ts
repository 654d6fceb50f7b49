// Every URL field of recipes and config.yml refuses credentials (user:password@, never repeated in the
// message) and control characters (ESC, BEL, LF, even where YAML or the URL parser would drop them),
// positioned at file:line:col as `validate` reports them.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { redactUrl, urlFieldProblem } from '../../src/config/url-field.js';
import { firstControlChar } from '../../src/core/control-chars.js';
import { ConfigError, formatIssue } from '../../src/core/errors.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';
import { load } from './workspace-fixture.js';

const SECRET = 's3cretpass';
const CRED = `https://user:${SECRET}@example.com`;
const forge = (repo: string): string => `name: a\nstrategy:\n  strategy: forge\n  repository: ${repo}\n`;
const direct = (url: string, more = ''): string =>
  `name: a\nstrategy:\n  strategy: direct\n  url: ${url}\n  check_method: etag\n${more}`;

// [id, recipe text, line, col, message]
const RECIPES: [string, string, number, number, RegExp][] = [
  [
    'url-credentials',
    direct(`${CRED}/a.AppImage`),
    4,
    8,
    /must not carry credentials .*https:\/\/\*\*\*@example\.com/,
  ],
  ['repo-credentials', forge(`${CRED}/o/r`), 4, 15, /must not carry credentials/],
  ['repo-user-only', forge('https://tok@example.com/o/r'), 4, 15, /must not carry credentials/],
  ['zsync-credentials', direct('https://e.example/a', `zsync: ${CRED}/a.zsync\n`), 6, 8, /credentials/],
  [
    'url-esc',
    direct('"https://e.example/a\\e[2J.AppImage"'),
    4,
    8,
    /control characters \(\\x1b at character 20\)/,
  ],
  ['url-bel', direct('"https://e.example/a\\a"'), 4, 8, /control characters \(\\x07/],
  ['url-lf-in-host', direct('"https://e.exa\\nmple/a"'), 4, 8, /control characters \(\\n/],
  ['url-trailing-lf', direct('"https://e.example/a\\n"'), 4, 8, /control characters \(\\n/],
  ['repo-esc', forge('"https://e.example/o/r\\e]0;x\\a"'), 4, 15, /control characters/],
];

void describe('recipe URL fields', () => {
  let h: TmpHome;
  before(async () => {
    h = await makeTmpHome();
    for (const [id, text] of RECIPES) await h.writeRecipe(id, text);
  });
  after(() => h.cleanup());

  void test('credentials and control characters are refused at the field, the secret never shown', async () => {
    const ws = await load(h);
    for (const [id, , line, col, message] of RECIPES) {
      const file = join(h.appsDir, id, `${id}.yml`);
      const app = ws.apps.find((a) => a.file === file);
      assert.ok(app && !app.ok, `${id} should fail`);
      assert.ok(app.error instanceof ConfigError, `${id}: ${app.error.message}`);
      const issue = app.error.issues[0];
      assert.ok(issue, id);
      assert.deepEqual([issue.line, issue.col], [line, col], `${id}: ${formatIssue(issue)}`);
      assert.match(issue.message, message, id);
      assert.ok(!app.error.message.includes(SECRET), app.error.message);
      assert.ok(firstControlChar(app.error.message) === -1, `${id}: ${JSON.stringify(app.error.message)}`);
    }
  });
});

const CONFIGS: [string, string, number, number, RegExp][] = [
  ['api', `hub_release_api_url: ${CRED}/api/v3\n`, 1, 22, /credentials/],
  ['lab-web', `lab_release_web_url: ${CRED}\n`, 1, 22, /credentials/],
  ['proxy-one', `hub_proxy_prefix: ${CRED}/proxy/\n`, 1, 19, /credentials/],
  ['proxy-list', `hub_proxy_prefix:\n  - https://ok.example/p/\n  - ${CRED}/p/\n`, 3, 5, /credentials/],
  ['api-esc', 'hub_release_web_url: "https://h.example\\e[31m"\n', 1, 22, /control characters/],
];

void describe('config.yml URL fields', () => {
  for (const [id, text, line, col, message] of CONFIGS) {
    void test(id, async () => {
      const h = await makeTmpHome();
      try {
        await h.writeConfig(text);
        const err = await load(h).catch((e: unknown) => e);
        assert.ok(err instanceof ConfigError, String(err));
        const issue = err.issues[0];
        assert.ok(issue);
        assert.deepEqual([issue.line, issue.col], [line, col], formatIssue(issue));
        assert.match(issue.message, message);
        assert.ok(!err.message.includes(SECRET), err.message);
      } finally {
        await h.cleanup();
      }
    });
  }
});

void describe('the shared URL check', () => {
  void test('codes, and a redaction that keeps the rest of the URL', () => {
    assert.equal(urlFieldProblem(`${CRED}/x`)?.code, 'URL_CREDENTIALS');
    assert.equal(urlFieldProblem('https://e.example/\u001b')?.code, 'URL_CONTROL_CHARS');
    assert.equal(urlFieldProblem('ftp://e.example/')?.code, 'URL_INVALID');
    assert.equal(urlFieldProblem('https://e.example/a?b=c@d'), undefined);
    assert.equal(redactUrl(`${CRED}/x?y=1`), 'https://***@example.com/x?y=1');
    assert.equal(redactUrl('https://e.example/\u001b[2J'), 'https://e.example/\\x1b[2J');
  });
});
