import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  isMovingTag,
  releaseGuard,
  rememberReleaseAsset,
  RELEASE_ASSET_HISTORY,
} from '../../src/app/release-guards.js';
import { isOlderRelease } from '../../src/sources/forge/proxy-trust.js';
import type { AppState } from '../../src/state/types.js';
import type { Resolution } from '../../src/sources/types.js';
import { forge, makeSettings } from '../sources/support.js';

const settings = makeSettings(forge('https://github.com/o/r'));

function resolution(extra: Partial<Resolution> = {}): Resolution {
  return {
    version: 'v1',
    identity: 'v1|A.AppImage|x',
    url: 'https://github.com/o/r/releases/download/v1/A.AppImage',
    assetName: 'A.AppImage',
    ...extra,
  };
}

function state(seen: { sha256?: string; size?: number }): AppState {
  return { strategy: 'forge', releaseAssets: { 'v1|A.AppImage': { ...seen, installedAt: 'then' } } };
}

void describe('release guards', () => {
  void test('without a digest on either side a size change is the signal', () => {
    const err = releaseGuard(settings, resolution({ size: 11 }), state({ size: 10 }), false);
    assert.equal(err?.code, 'ASSET_REPLACED');
    assert.match(err?.message ?? '', /was 10 bytes, now 11 bytes/);
    assert.equal(releaseGuard(settings, resolution({ size: 10 }), state({ size: 10 }), false), undefined);
    assert.equal(releaseGuard(settings, resolution({ size: 11 }), state({ size: 10 }), true), undefined);
  });

  void test('nothing known to compare is not an alarm', () => {
    assert.equal(releaseGuard(settings, resolution(), state({}), false), undefined);
    const onlyDigest = resolution({ sha256: 'b'.repeat(64) });
    assert.equal(releaseGuard(settings, onlyDigest, state({ size: 3 }), false), undefined);
  });

  void test('moving tags', () => {
    for (const t of ['continuous', 'Nightly', 'nightly-build', 'latest', 'canary', 'tip']) {
      assert.ok(isMovingTag(t), t);
    }
    for (const t of ['v1.2.3', '1.0', 'continuously', 'release-nightlyish']) assert.ok(!isMovingTag(t), t);
  });

  void test('the history stays bounded and the newest entry wins', () => {
    let h: ReturnType<typeof rememberReleaseAsset> | undefined;
    for (let i = 0; i < RELEASE_ASSET_HISTORY + 10; i++) {
      h = rememberReleaseAsset(h, resolution({ version: `v${i}`, sha256: 'a'.repeat(64) }), 5, 'now');
    }
    assert.equal(Object.keys(h ?? {}).length, RELEASE_ASSET_HISTORY);
    assert.ok(h?.[`v${RELEASE_ASSET_HISTORY + 9}|A.AppImage`]);
    assert.equal(h?.['v0|A.AppImage'], undefined);
  });

  void test('release order: publication time first, then the tags as versions', () => {
    const older = { tag: 'v9', publishedAt: '2020-01-01T00:00:00Z' };
    assert.ok(isOlderRelease(older, { tag: 'v1', publishedAt: '2021-01-01T00:00:00Z' }));
    assert.ok(isOlderRelease({ tag: 'v1.2.3' }, { tag: 'v1.10.0' }));
    assert.ok(isOlderRelease({ tag: 'release-1.0.0-beta.1' }, { tag: 'release-1.0.0' }));
    assert.ok(!isOlderRelease({ tag: 'v2' }, { tag: 'v1' }));
    assert.ok(!isOlderRelease({ tag: 'nightly' }, { tag: 'v1' }), 'unknown order is not a downgrade');
  });
});
