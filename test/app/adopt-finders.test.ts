// The seam for files without update information: finders are tried in order, the first proposal
// is planned with its words, and none proposing anything is ADOPT_NO_SOURCE with a pasteable hint.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AdoptInspection } from '../../src/app/adopt/inspect.js';
import { planAdoption, type PlanOptions } from '../../src/app/adopt/plan.js';
import type { SourceFinder } from '../../src/app/adopt/source-finders.js';

const insp: AdoptInspection = {
  file: '/home/me/Downloads/Obsidian 1.7.7.AppImage',
  arch: 'x86_64',
  appImageType: 2,
  updateInfo: { transport: 'none' },
  signed: false,
  displayName: 'Obsidian',
  version: '1.7.7',
  appStream: {},
  warnings: [],
};

const base: PlanOptions = {
  nodeArch: 'x64',
  lookupRelease: () => Promise.reject(new Error('no forge in this test')),
  isKnownForge: () => false,
  repositoryOf: () => undefined,
};

void describe('adopt source finders', () => {
  void test('a plugged-in finder (a catalogue matcher) is planned with what it matched', async () => {
    const seen: string[] = [];
    const passes: SourceFinder = (i, ctx) => {
      seen.push(`pass ${ctx.name}`);
      return Promise.resolve(undefined);
    };
    const catalogue: SourceFinder = () =>
      Promise.resolve({
        strategy: {
          strategy: 'forge',
          repository: 'https://github.com/obsidianmd/obsidian-releases',
          asset_match: 'Obsidian-*.AppImage',
        },
        source: 'AppImageHub: Obsidian → obsidianmd/obsidian-releases, by desktop Name',
        selects: 'Obsidian-1.7.7.AppImage',
      });
    const plan = await planAdoption(insp, { ...base, finders: [passes, catalogue] });
    assert.ok(plan.ok);
    assert.deepEqual(seen, ['pass obsidian']);
    assert.equal(plan.source, 'AppImageHub: Obsidian → obsidianmd/obsidian-releases, by desktop Name');
    assert.equal(plan.recipe.name, 'obsidian');
    assert.equal(plan.recipe.selects, 'Obsidian-1.7.7.AppImage');
  });

  void test('no finder proposes anything: ADOPT_NO_SOURCE whose hint quotes the file and has no pipe', async () => {
    const plan = await planAdoption(insp, base);
    assert.ok(!plan.ok);
    assert.equal(plan.error.code, 'ADOPT_NO_SOURCE');
    assert.match(
      plan.error.hint ?? '',
      /adopt '\/home\/me\/Downloads\/Obsidian 1\.7\.7\.AppImage' --url URL/,
    );
    assert.match(plan.error.hint ?? '', /appimage-keeper add obsidian/);
    assert.doesNotMatch(plan.error.hint ?? '', /\|/);
  });
});
