// Real AppImages from other tool chains carry no block map: detection must say so (no false
// positive from whatever their last bytes happen to be), and appending one makes them readable.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { withBlockMap } from '../../../fixtures/blockmap.js';
import { readLocalBlockMap } from '../../../src/transfer/blockmap/index.js';
import { corpusFile, skipWithoutCorpus } from '../../helpers/corpus.js';
import { tempDir } from '../zsync/helpers.js';

const FILES = [
  'Hello_World-x86_64.gzip.AppImage',
  'Hello_World-x86_64.xz.AppImage',
  'Hello_World-x86_64.zstd.AppImage',
  'appimagetool-x86_64.AppImage',
  'elffile',
];

void describe('block maps and real AppImages', { skip: skipWithoutCorpus() }, () => {
  void test('appimagetool-made files have none; with one appended, it covers the file exactly', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      for (const name of FILES) {
        const path = corpusFile('appimages', name) ?? '';
        assert.equal(await readLocalBlockMap(path), undefined, name);
        const body = await readFile(path);
        const mapped = join(dir, name);
        await writeFile(mapped, await withBlockMap(body));
        const map = await readLocalBlockMap(mapped);
        assert.ok(map, name);
        assert.equal(map.fileSize - map.tailSize, body.length, name);
      }
    } finally {
      await cleanup();
    }
  });
});
