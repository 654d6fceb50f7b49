/**
 * Desktop integration benchmark: reading the desktop file and icon of a ~300 MB AppImage in-process
 * (lazy SquashFS reads through one file descriptor) against extracting with `unsquashfs`, the whole
 * image and only the two files. Bytes read: our reader's counter; for unsquashfs, the `rchar` of its
 * process (every byte its read() calls returned), taken from a wrapping shell's /proc/<pid>/io after
 * it reaped unsquashfs, minus the same shell running `true`.
 *
 *   npx tsx bench/integrate.ts [--size-mib 300] [--runs 5] [--smoke]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeAppImage } from '../fixtures/make-appimage.js';
import { readElfInfo } from '../src/appimage/elf.js';
import { integrateDesktop, removeIntegration } from '../src/install/desktop-integration.js';
import { median, numberArg } from './cli-args.js';

const run = promisify(execFile);

/** Runs a command under sh and returns its wall time and the bytes its read() calls returned. */
async function measured(cmd: string[], baseline: number): Promise<{ ms: number; bytes: number }> {
  const quoted = cmd.map((c) => `'${c.replace(/'/g, `'\\''`)}'`).join(' ');
  const t0 = performance.now();
  const { stdout } = await run('sh', ['-c', `${quoted} >/dev/null 2>&1; grep '^rchar' /proc/$$/io`], {
    maxBuffer: 1 << 20,
  });
  const ms = performance.now() - t0;
  const rchar = Number(/rchar:\s*(\d+)/.exec(stdout)?.[1] ?? NaN);
  return { ms, bytes: rchar - baseline };
}

async function shellBaseline(): Promise<number> {
  const { stdout } = await run('sh', ['-c', `true; grep '^rchar' /proc/$$/io`]);
  return Number(/rchar:\s*(\d+)/.exec(stdout)?.[1] ?? NaN);
}

const fmtBytes = (n: number): string =>
  n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`;

const pct = (p: number): string => (p >= 1 ? p.toFixed(1) : p.toPrecision(2));

async function main(): Promise<void> {
  const sizeMiB = numberArg('size-mib', 300, 1);
  const runs = numberArg('runs', 5, 1);
  const work = await mkdtemp(join(tmpdir(), 'ak-bench-'));
  try {
    const file = join(work, 'big.AppImage');
    process.stderr.write(`building a ${sizeMiB} MiB AppImage...\n`);
    // The filler is random, so compression level does not change the layout; level 1 builds faster.
    await makeAppImage({
      outFile: file,
      name: 'big',
      version: '1.0',
      padBytes: sizeMiB << 20,
      mksquashfsArgs: ['-Xcompression-level', '1'],
    });
    const size = (await stat(file)).size;
    const offset = (await readElfInfo(file)).payloadOffset;

    const ours: { ms: number; bytes: number }[] = [];
    for (let i = 0; i < runs; i++) {
      const dataHome = join(work, `data-${i}`);
      const t0 = performance.now();
      const res = await integrateDesktop({
        appName: 'big',
        appImagePath: file,
        execPath: file,
        dataHome,
        execArgs: [],
        env: {},
      });
      ours.push({ ms: performance.now() - t0, bytes: res.bytesRead });
      if (res.record) await removeIntegration(res.record, 'big');
    }

    const baseline = await shellBaseline();
    const full: { ms: number; bytes: number }[] = [];
    const two: { ms: number; bytes: number }[] = [];
    for (let i = 0; i < runs; i++) {
      const dest = join(work, `x-${i}`);
      full.push(await measured(['unsquashfs', '-o', String(offset), '-d', dest, file], baseline));
      await rm(dest, { recursive: true, force: true });
      two.push(
        await measured(
          [
            'unsquashfs',
            '-o',
            String(offset),
            '-d',
            dest,
            file,
            'big.desktop',
            'usr/share/icons/hicolor/256x256/apps/big.png',
          ],
          baseline,
        ),
      );
      await rm(dest, { recursive: true, force: true });
    }

    const row = (name: string, r: { ms: number; bytes: number }[]): string => {
      const bytes = median(r.map((x) => x.bytes));
      return `| ${name} | ${median(r.map((x) => x.ms)).toFixed(1)} ms | ${fmtBytes(bytes)} | ${pct((100 * bytes) / size)} % |`;
    };
    console.log(
      `AppImage: ${fmtBytes(size)} (SquashFS gzip, 128 KiB blocks, at offset ${offset}); median of ${runs} runs, warm page cache`,
    );
    console.log('');
    console.log('| method | time | bytes read | of the image |');
    console.log('|---|---|---|---|');
    console.log(row('appimage-keeper integrateDesktop (in-process, writes entry + icon)', ours));
    console.log(row('`unsquashfs` whole image', full));
    console.log(row('`unsquashfs` desktop file + icon only', two));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
