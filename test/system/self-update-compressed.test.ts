/**
 * The compressed release asset (`appimage-keeper-<v>-linux-<arch>.zst`, made by the zstd program
 * as the release build does): preferred when a release has it, its digest and attestation of the
 * compressed bytes, the ELF checks of what it decodes to, and hostile streams (one that decodes to
 * more than an executable may be, a damaged one) refused with nothing left behind.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { KeeperError } from '../../src/core/errors.js';
import { OLD, ourWorkflow, printing, useSelfUpdateWorld } from '../helpers/self-update-world.js';

/** `input` compressed by the zstd program (`--no-content-size`: a header that states no size). */
function zstd(input: Buffer, ...flags: string[]): Buffer {
  const r = spawnSync('zstd', ['-q', '-c', '-3', ...flags], { input, maxBuffer: 1 << 30 });
  if (r.error || r.status !== 0) throw new Error(`zstd failed: ${r.error?.message ?? r.stderr.toString()}`);
  return r.stdout;
}

void describe('self-update of the compressed executable', () => {
  const w = useSelfUpdateWorld();
  const standalone = (file: string) => ({ kind: 'standalone' as const, executable: file });

  async function assertRefused(code: string): Promise<void> {
    const { dir, file } = await w.installed();
    await assert.rejects(w.update(standalone(file)), (e: unknown) => {
      assert.ok(e instanceof KeeperError, String(e));
      assert.equal(e.code, code, e.message);
      return true;
    });
    assert.deepEqual(await readFile(file), OLD, 'the executable is unchanged');
    assert.deepEqual(await readdir(dir), ['appimage-keeper'], 'no temp file left');
  }

  void it('downloads the .zst when the release has one, checks its digest, and installs what it decodes to', async () => {
    // Padding makes the compressed asset clearly the smaller download.
    const body = Buffer.concat([printing('9.5.0\n'), Buffer.alloc(256 * 1024)]);
    const packed = zstd(body);
    assert.ok(packed.length < body.length / 4);
    w.publish('9.5.0', body, { attestedBy: ourWorkflow('v9.5.0'), size: body.length, compressed: packed });
    const { file } = await w.installed();
    const r = await w.update(standalone(file));
    assert.ok(r.status === 'updated', JSON.stringify(r));
    assert.equal(r.bytes_downloaded, packed.length, 'the compressed asset was downloaded');
    assert.deepEqual(await readFile(file), body);
    assert.deepEqual(await readFile(`${file}.previous`), OLD);
  });

  void it('without a .zst in the release, installs the raw executable as before', async () => {
    const body = printing('9.5.1\n');
    w.publish('9.5.1', body, { attestedBy: ourWorkflow('v9.5.1'), size: body.length });
    const { file } = await w.installed();
    const r = await w.update(standalone(file));
    assert.ok(r.status === 'updated');
    assert.equal(r.bytes_downloaded, body.length);
    assert.deepEqual(await readFile(file), body);
  });

  void it('requires the attestation of the compressed bytes (SELF_UPDATE_UNVERIFIED)', async () => {
    const body = printing('9.5.2\n');
    // Only the raw file is attested; the .zst the release offers is not.
    w.publish('9.5.2', body, { size: body.length, compressed: zstd(body) });
    await assertRefused('SELF_UPDATE_UNVERIFIED');
  });

  void it('applies the ELF checks to what the .zst decodes to (VERIFY_NOT_ELF)', async () => {
    const script = Buffer.from('#!/bin/sh\necho 9.5.3\n');
    w.publish('9.5.3', printing('9.5.3\n'), { attestedBy: ourWorkflow('v9.5.3'), compressed: zstd(script) });
    await assertRefused('VERIFY_NOT_ELF');
  });

  void it('refuses a .zst that decodes to more than an executable may be, without writing it all (SELF_UPDATE_SIZE)', async () => {
    // 600 MiB of zeros in a few KiB; the header states no size, so only counting the output stops it.
    const bomb = zstd(Buffer.alloc(600 * 1024 * 1024), '--no-content-size');
    w.publish('9.5.4', printing('9.5.4\n'), { attestedBy: ourWorkflow('v9.5.4'), compressed: bomb });
    await assertRefused('SELF_UPDATE_SIZE');
  });

  void it('refuses a .zst whose header claims more than an executable may be, before decoding (SELF_UPDATE_SIZE)', async () => {
    const bomb = zstd(Buffer.alloc(600 * 1024 * 1024));
    w.publish('9.5.5', printing('9.5.5\n'), { attestedBy: ourWorkflow('v9.5.5'), compressed: bomb });
    await assertRefused('SELF_UPDATE_SIZE');
  });

  void it('refuses a damaged .zst (SELF_UPDATE_UNPACK)', async () => {
    const packed = zstd(Buffer.concat([printing('9.5.6\n'), Buffer.alloc(64 * 1024, 7)]));
    const cut = packed.subarray(0, packed.length - 9);
    w.publish('9.5.6', printing('9.5.6\n'), { attestedBy: ourWorkflow('v9.5.6'), compressed: cut });
    await assertRefused('SELF_UPDATE_UNPACK');
  });
});
