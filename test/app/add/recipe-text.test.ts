// The recipe writer's own checks, whatever draft reaches it: control characters and URL credentials
// never written, comments escaped and masked, and asset_match read back against the asset it names.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { recipeText } from '../../../src/app/add/recipe-text.js';
import { firstControlChar } from '../../../src/core/control-chars.js';
import { KeeperError } from '../../../src/core/errors.js';

const forge = (asset_match: string) => ({
  name: 'app',
  strategy: { strategy: 'forge', repository: 'https://h.example/o/r', asset_match },
});
const refused = (code: string, message: RegExp) => (e: unknown) =>
  e instanceof KeeperError &&
  e.code === code &&
  message.test(e.message) &&
  firstControlChar(e.message) === -1;

void describe('recipe writer', () => {
  void test('an asset_match that does not select its asset once read back is refused', () => {
    assert.throws(
      () => recipeText({ ...forge('../App-*.AppImage'), selects: '../App-1.AppImage' }, []),
      refused('RECIPE_VALUE_UNSAFE', /would not select the asset \.\.\/App-1\.AppImage/),
    );
    assert.throws(
      () => recipeText({ ...forge('App-*-x86_64.AppImage'), selects: 'App-1-aarch64.AppImage' }, []),
      refused('RECIPE_VALUE_UNSAFE', /would not select/),
    );
    const text = recipeText({ ...forge('App\\[1\\]-*.AppImage'), selects: 'App[1]-2.0.AppImage' }, []);
    assert.equal(
      (parse(text) as { strategy: { asset_match: string } }).strategy.asset_match,
      'App\\[1\\]-*.AppImage',
    );
  });

  void test('control characters in any value, credentials in URL fields: refused', () => {
    assert.throws(() => recipeText(forge('A\x1b[2J*'), []), refused('RECIPE_VALUE_UNSAFE', /\\x1b/));
    const url = {
      name: 'app',
      strategy: { strategy: 'direct', url: 'https://u:pw@h.example/a', check_method: 'etag' },
    };
    assert.throws(
      () => recipeText(url, []),
      refused('RECIPE_VALUE_UNSAFE', /credentials.*\*\*\*@h\.example/),
    );
    assert.throws(
      () => recipeText({ ...forge('*'), zsync: 'https://h.example/a\x07.zsync' }, []),
      refused('RECIPE_VALUE_UNSAFE', /control characters/),
    );
  });

  void test('comments keep their text with control characters escaped and credentials masked', () => {
    const text = recipeText(forge('*'), ['from https://u:pw@h.example/x\x1b[2J\nnext\x07']);
    assert.ok(
      text.split('\n').every((line) => firstControlChar(line) === -1),
      JSON.stringify(text),
    );
    assert.match(text, /^# from https:\/\/\*\*\*@h\.example\/x\\x1b\[2J\\nnext\\x07$/m);
  });
});
