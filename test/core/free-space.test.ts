import assert from 'node:assert/strict';
import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, test } from 'node:test';
import { ensureFreeSpace } from '../../src/core/free-space.js';

void describe('ensureFreeSpace', () => {
  void test('refuses more than the file system has, with NO_SPACE and both figures', async () => {
    const fs = await statfs(tmpdir());
    const available = fs.bavail * fs.bsize;
    await assert.rejects(
      ensureFreeSpace(tmpdir(), available + 1, 'the download'),
      (err: Error & { code?: string }) => {
        assert.equal(err.code, 'NO_SPACE');
        assert.match(err.message, new RegExp(`needs ${available + 1} bytes`));
        return true;
      },
    );
    await ensureFreeSpace(tmpdir(), 1, 'a small file');
  });
});
