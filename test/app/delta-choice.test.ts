import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DeltaMethod } from '../../src/config/types.js';
import { zsyncControlUrl } from '../../src/app/fetch-asset.js';
import type { Resolution } from '../../src/sources/types.js';
import { makeSettings } from '../sources/support.js';

const FORGE = { strategy: 'forge', repository: 'https://github.com/o/r' } as const;
const url = 'https://example.com/app.AppImage';

function resolution(published: boolean): Resolution {
  return {
    version: '2',
    identity: 'x',
    url,
    assetName: 'app.AppImage',
    ...(published ? { zsyncUrl: 'https://example.com/assets/app.AppImage.zsync' } : {}),
  };
}

function controlFor(delta: DeltaMethod, zsync: boolean | string, published: boolean): string | undefined {
  return zsyncControlUrl(makeSettings(FORGE, { delta, zsync }), resolution(published));
}

void describe('which .zsync file a delta setting uses', () => {
  void test('auto and zsync: the recipe\u2019s zsync, else a published <asset>.zsync', () => {
    for (const delta of ['auto', 'zsync'] as const) {
      assert.equal(controlFor(delta, true, false), `${url}.zsync`);
      assert.equal(controlFor(delta, 'https://cdn.example/c.zsync', true), 'https://cdn.example/c.zsync');
      assert.equal(controlFor(delta, 'auto', true), 'https://example.com/assets/app.AppImage.zsync');
      assert.equal(controlFor(delta, false, true), 'https://example.com/assets/app.AppImage.zsync');
      assert.equal(controlFor(delta, false, false), undefined);
    }
  });

  void test('blockmap and off never use a .zsync file', () => {
    for (const delta of ['blockmap', 'off'] as const)
      for (const zsync of [true, 'auto', false, 'https://cdn.example/c.zsync'])
        assert.equal(controlFor(delta, zsync, true), undefined, `${delta} with zsync ${String(zsync)}`);
  });
});
