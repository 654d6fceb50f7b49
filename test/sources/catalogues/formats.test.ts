/**
 * The catalogue formats come from one list (src/config/catalogue-formats.ts): config.yml's enum,
 * each format's reader and label, and the origin line `add NAME` writes and `info` reads back.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { catalogueOrigin } from '../../../src/app/catalogue-origin.js';
import { CATALOGUE_FORMATS } from '../../../src/config/catalogue-formats.js';
import { configSchema } from '../../../src/config/schema.js';
import { readerFor } from '../../../src/sources/catalogues/readers.js';
import type { CatalogueFormat } from '../../../src/sources/catalogues/types.js';
import { makeContext } from '../support.js';

const formats = Object.keys(CATALOGUE_FORMATS) as CatalogueFormat[];

void describe('catalogue formats, from one list', () => {
  void test('config.yml accepts exactly the formats of the list', () => {
    for (const format of formats) {
      const parsed = configSchema.safeParse({ catalogues: [{ url: 'https://c.example/list', format }] });
      assert.ok(parsed.success, `config.yml refuses format "${format}"`);
    }
    const unknown = configSchema.safeParse({ catalogues: [{ url: 'https://c.example/x', format: 'other' }] });
    assert.equal(unknown.success, false);
  });

  void test('each format has its reader, named and labelled as the list says', () => {
    for (const format of formats) {
      assert.equal(readerFor(format).format, format);
      assert.equal(readerFor(format).label, CATALOGUE_FORMATS[format].label);
    }
  });

  void test("info reads back every format's origin line, as add writes it", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ak-formats-'));
    try {
      for (const format of formats) {
        const { label } = CATALOGUE_FORMATS[format];
        const file = join(dir, `${format}.yml`);
        await writeFile(file, `# catalogue: ${label} https://c.example/list entry Some App\nname: x\n`);
        const origin = await catalogueOrigin(makeContext(), file);
        assert.equal(origin?.catalogue, label, `no origin read for ${label}`);
        assert.equal(origin.entry, 'Some App');
      }
      await writeFile(join(dir, 'other.yml'), '# catalogue: Other https://c.example/list entry X\n');
      assert.equal(await catalogueOrigin(makeContext(), join(dir, 'other.yml')), undefined);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
