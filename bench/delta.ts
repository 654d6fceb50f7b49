/**
 * Delta methods side by side on an Electron-like AppImage: ~150 MiB of real SquashFS (a large
 * binary, resources, locales) of which only `resources/app.asar` (about 3% of the bytes) changes
 * between v1 and v2, both built by mksquashfs and carrying electron-builder style block maps.
 * Against the loopback sim, through a counting TCP relay (bytes on the wire, headers included):
 *
 *   full download  our downloader (segmented, 4 connections)
 *   zsync (ours)   our client with a .zsync file made by zsyncmake
 *   zsync (Debian) the `zsync` binary with the same file
 *   block map      our client with the two embedded block maps, no .zsync file
 *
 *   npx tsx bench/delta.ts [--size-mib 150] [--asar-mib 4.5] [--runs 3] [--smoke]
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { withBlockMap } from '../fixtures/blockmap.js';
import { makeAppImage } from '../fixtures/make-appimage.js';
import { generatedBytes, startSim } from '../sim/index.js';
import { parseBlockMap, tailJsonLength, type BlockMap } from '../src/transfer/blockmap/format.js';
import { median, numberArg } from './cli-args.js';
import { bundleClient, countingRelay, hashFile, timed } from './support.js';
import { TRANSFER_CLIENT, type TransferReport } from './transfer-client.js';

const run = promisify(execFile);
const MiB = 1024 * 1024;

interface Row {
  bytes: number;
  requests: number;
  wall: number;
  rssMiB: number;
  payload: number;
  reused: number;
}

/** The files of an Electron app's AppDir, sized to about `sizeMiB` in total; only app.asar varies. */
function electronFiles(sizeMiB: number, asarMiB: number, asarSeed: number): Record<string, Buffer> {
  const fixed: [string, number][] = [
    ['resources.pak', 0.07],
    ['icudtl.dat', 0.07],
    ['libffmpeg.so', 0.02],
    ['libvk_swiftshader.so', 0.035],
    ['v8_context_snapshot.bin', 0.045],
  ];
  const files: Record<string, Buffer> = {};
  let used = asarMiB;
  fixed.forEach(([name, share], i) => {
    files[name] = generatedBytes(100 + i, 0, Math.round(sizeMiB * share * MiB));
    used += sizeMiB * share;
  });
  for (let i = 0; i < 40; i++) {
    files[`locales/l${String(i).padStart(2, '0')}.pak`] = generatedBytes(200 + i, 0, Math.round(0.12 * MiB));
    used += 0.12;
  }
  // The Electron binary takes the rest.
  files['electronish-bin'] = generatedBytes(99, 0, Math.round((sizeMiB - used) * MiB));
  files['resources/app.asar'] = generatedBytes(asarSeed, 0, Math.round(asarMiB * MiB));
  return files;
}

function mapOf(body: Buffer): BlockMap {
  const length = tailJsonLength(body.subarray(body.length - 4), body.length);
  const map =
    length === undefined
      ? undefined
      : parseBlockMap(body.subarray(body.length - 4 - length, body.length - 4), body.length);
  if (!map) throw new Error('fixture without a block map');
  return map;
}

async function main(): Promise<void> {
  // Under --smoke the 40 locales (4.8 MiB) and the fixed files still fit, with a small binary.
  const sizeMiB = numberArg('size-mib', 150, 8);
  const asarMiB = numberArg('asar-mib', 4.5, 0.5);
  const runs = numberArg('runs', 3, 1);
  const dir = await mkdtemp(join(tmpdir(), 'ak-delta-bench-'));
  const sim = await startSim();
  let relay: Awaited<ReturnType<typeof countingRelay>> | undefined;
  try {
    const build = async (version: string, asarSeed: number): Promise<Buffer> => {
      const raw = join(dir, `raw-${version}.AppImage`);
      await makeAppImage({
        outFile: raw,
        name: 'electronish',
        version,
        extraFiles: electronFiles(sizeMiB, asarMiB, asarSeed),
      });
      const mapped = await withBlockMap(await readFile(raw));
      await rm(raw);
      return mapped;
    };
    const v1 = await build('1.0.0', 1);
    const v2 = await build('2.0.0', 2);
    const seedPath = join(dir, 'installed.AppImage');
    const targetPath = join(dir, 'app.AppImage');
    await writeFile(seedPath, v1);
    await writeFile(targetPath, v2);
    await run('zsyncmake', ['-o', `${targetPath}.zsync`, '-u', 'app.AppImage', targetPath], { cwd: dir });
    const control = await readFile(`${targetPath}.zsync`);
    const want = await hashFile(targetPath, 'sha256');

    const oldMap = mapOf(v1);
    const newMap = mapOf(v2);
    const have = new Set(oldMap.checksums.map((c, i) => `${c}:${oldMap.sizes[i]}`));
    const changed = newMap.sizes.reduce(
      (sum, s, i) => sum + (have.has(`${newMap.checksums[i]}:${s}`) ? 0 : s),
      0,
    );

    sim.putAsset('/rel/app.AppImage', { file: targetPath });
    sim.putAsset('/rel/app.AppImage.zsync', control);
    relay = await countingRelay(Number(new URL(sim.url).port));
    const base = `http://127.0.0.1:${relay.port}/rel/app.AppImage`;
    const clientJs = join(dir, 'delta-client.mjs');
    await bundleClient(TRANSFER_CLIENT, clientJs);

    const methods = [
      { name: 'full download', kind: 'ours', arg: 'full', url: base },
      { name: 'zsync (ours, .zsync file)', kind: 'ours', arg: 'zsync', url: `${base}.zsync` },
      { name: 'zsync (Debian zsync 0.6.2)', kind: 'debian', arg: '', url: `${base}.zsync` },
      { name: 'block map (ours, embedded)', kind: 'ours', arg: 'blockmap', url: base },
    ] as const;
    const rows = new Map<string, Row[]>(methods.map((m) => [m.name, []]));
    for (let i = 0; i < runs; i++) {
      for (const m of methods) {
        const out = join(dir, `out-${i}`);
        await mkdir(out);
        sim.clearRequests();
        const before = relay.received();
        let row: Row;
        if (m.kind === 'ours') {
          const t = await timed(process.execPath, [clientJs, m.arg, m.url, seedPath, out], process.cwd());
          const r = JSON.parse(t.stdout) as TransferReport;
          if ((await hashFile(r.path, 'sha256')) !== want) throw new Error(`${m.name}: wrong result`);
          row = {
            bytes: relay.received() - before,
            requests: sim.requests.length,
            wall: t.wall,
            rssMiB: t.rssKiB / 1024,
            payload: r.bytesFetched,
            reused: r.bytesReused,
          };
        } else {
          const result = join(out, 'out.AppImage');
          const t = await timed('zsync', ['-q', '-i', seedPath, '-o', result, m.url], out);
          if ((await hashFile(result, 'sha256')) !== want) throw new Error(`${m.name}: wrong result`);
          row = {
            bytes: relay.received() - before,
            requests: sim.requests.length,
            wall: t.wall,
            rssMiB: t.rssKiB / 1024,
            payload: NaN,
            reused: NaN,
          };
        }
        rows.get(m.name)!.push(row);
        await rm(out, { recursive: true, force: true });
      }
    }

    const mib = (n: number): string => (Number.isNaN(n) ? '—' : (n / MiB).toFixed(2));
    console.log(
      `image ${(v2.length / MiB).toFixed(1)} MiB (app.asar ${asarMiB} MiB changed), ${newMap.sizes.length} chunks, ` +
        `changed chunks ${(changed / MiB).toFixed(2)} MiB, block map tail ${newMap.tailSize} B, ` +
        `.zsync file ${control.length} B; median of ${runs} runs`,
    );
    console.log('');
    console.log(
      '| method | on the wire (MiB) | payload (MiB) | reused (MiB) | requests | wall (s) | peak RSS (MiB) |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    const med = (name: string, key: keyof Row): number => median(rows.get(name)!.map((r) => r[key]));
    for (const m of methods) {
      console.log(
        `| ${m.name} | ${mib(med(m.name, 'bytes'))} | ${mib(med(m.name, 'payload'))} | ${mib(med(m.name, 'reused'))} | ` +
          `${med(m.name, 'requests')} | ${med(m.name, 'wall').toFixed(2)} | ${med(m.name, 'rssMiB').toFixed(0)} |`,
      );
    }
    const bm = methods[3].name;
    const bytesRatio = med(bm, 'bytes') / (changed + newMap.tailSize);
    const timeRatio = med(bm, 'wall') / med(methods[1].name, 'wall');
    console.log('');
    console.log(
      `block map bytes on the wire / (changed chunks + tail): ${bytesRatio.toFixed(4)} (target ≤ 1.05); ` +
        `block map time / our zsync's: ${timeRatio.toFixed(2)} (target ≤ 1.5)`,
    );
  } finally {
    relay?.server.close();
    await sim.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
