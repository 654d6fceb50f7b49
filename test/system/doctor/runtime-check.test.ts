/**
 * doctor's `runtime` check and `--version --verbose`: the Node.js that runs the tool is named, and
 * a line past its end of life (src/core/node-lines.ts) is a warning, by the clock passed in.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nodeLineStatus, supportedLtsLines } from '../../../src/core/node-lines.js';
import { runtimeCheck } from '../../../src/system/doctor/runtime-check.js';
import { runInProcess } from '../../helpers/run-in-process.js';
import { makeTmpHome } from '../../helpers/tmp-home.js';

const day = (iso: string) => new Date(`${iso}T12:00:00Z`);
const npmNode = { sea: false, execPath: '/usr/bin/node' };

void describe('runtime check', () => {
  void it('warns for Node.js 20 after 2026-04-30, not on that day', () => {
    const after = runtimeCheck({ version: 'v20.20.2', ...npmNode }, day('2026-11-28'));
    assert.equal(after.status, 'warn');
    assert.equal(
      after.message,
      'Node.js v20.20.2 (/usr/bin/node): Node.js 20 reached end of life on 2026-04-30 and gets no security fixes',
    );
    assert.match(after.hint ?? '', /supported Node\.js line \(22, 24, 26\).*standalone executable/);
    assert.equal(runtimeCheck({ version: 'v20.20.2', ...npmNode }, day('2026-04-30')).status, 'ok');
  });

  void it('names the runtime embedded in the standalone executable, and its end of life', () => {
    const c = runtimeCheck({ version: 'v24.22.3', sea: true, execPath: '/opt/ak' }, day('2026-11-28'));
    assert.equal(c.status, 'ok');
    assert.equal(
      c.message,
      'Node.js v24.22.3 (embedded in the standalone executable), supported until 2028-04-30',
    );
    const late = runtimeCheck({ version: 'v24.22.3', sea: true, execPath: '/opt/ak' }, day('2028-05-01'));
    assert.equal(late.status, 'warn');
    assert.match(late.hint ?? '', /self-update/);
  });

  void it('treats a line older than the table as past, and a newer one as unknown but fine', () => {
    assert.equal(nodeLineStatus('v16.20.0', day('2026-11-28')).pastEndOfLife, true);
    assert.deepEqual(nodeLineStatus('v27.0.0', day('2026-11-28')), {
      line: 27,
      endOfLife: undefined,
      pastEndOfLife: false,
    });
    assert.deepEqual(supportedLtsLines(day('2026-11-28')), [22, 24, 26]);
  });
});

void describe('--version --verbose', () => {
  void it('prints the version, then the Node.js runtime as doctor names it', async () => {
    const h = await makeTmpHome();
    try {
      const plain = await runInProcess(['--version'], { env: h.env });
      const verbose = await runInProcess(['--version', '--verbose'], { env: h.env });
      assert.equal(verbose.code, 0, verbose.stderr);
      const [version, runtime, ...rest] = verbose.stdout.trimEnd().split('\n');
      assert.equal(version, plain.stdout.trim());
      assert.equal(
        runtime,
        runtimeCheck({ version: process.version, ...npmNode, execPath: process.execPath }, new Date())
          .message,
      );
      assert.deepEqual(rest, []);
    } finally {
      await h.cleanup();
    }
  });
});
