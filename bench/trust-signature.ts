/**
 * Cost of the embedded-signature check per app on an update: AppImages signed by GnuPG (RSA 2048
 * binary/SHA-1 like older files, Ed25519 text/SHA-256 like newer ones), verified as the update
 * pipeline does. The signed digest (SHA-256 with the signature sections zeroed) rides on the read
 * that computes the file's SHA-256 (as the downloader's hashing pass does); the columns show that
 * pass against the SHA-256 alone, the digest by its own read (the fallback), reading the sections,
 * the OpenPGP verification, and the whole stage both ways. CPU is user+system of this process.
 *
 *   npx tsx bench/trust-signature.ts [--size-mib 200] [--runs 5] [--smoke]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGpgHome } from '../fixtures/gpg.js';
import { makeAppImage } from '../fixtures/make-appimage.js';
import { readEmbeddedSignature, sha256WithZeroedRanges } from '../src/appimage/embedded-signature.js';
import { verifyEmbeddedSignature } from '../src/appimage/signature-verify.js';
import { sha256File } from '../src/appimage/verify.js';
import { ZeroedDigestTap } from '../src/appimage/zeroed-digest.js';
import { checkDetached, parseDetachedSignature, parseKeyBlock } from '../src/trust/openpgp/index.js';
import { median, numberArg } from './cli-args.js';

/** Median CPU and wall milliseconds of `fn` over `runs`. */
async function measure(runs: number, fn: () => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { cpu: median(cpu), wall: median(wall) };
}

async function main(): Promise<void> {
  const sizeMiB = numberArg('size-mib', 200, 1);
  const runs = numberArg('runs', 5, 1);
  const work = await mkdtemp(join(tmpdir(), 'ak-bench-sig-'));
  const gpg = await createGpgHome();
  try {
    const rsa = await gpg.generateKey('rsa2048', 'Bench RSA <rsa@example.invalid>');
    const ed = await gpg.generateKey('ed25519', 'Bench Ed25519 <ed@example.invalid>');
    const variants = [
      { label: 'RSA 2048, binary, SHA-1', key: rsa, mode: 'binary', digest: 'SHA1' },
      { label: 'Ed25519, text, SHA-256', key: ed, mode: 'text', digest: 'SHA256' },
    ] as const;
    const rows: string[][] = [];
    for (const v of variants) {
      const file = join(work, `${v.mode}.AppImage`);
      await makeAppImage({
        outFile: file,
        name: 'bench',
        version: '1.0.0',
        padBytes: sizeMiB << 20,
        sign: { gnupgHome: gpg.home, key: v.key, mode: v.mode, digest: v.digest },
      });
      const embedded = await readEmbeddedSignature(file);
      if (!embedded?.key) throw new Error('the bench file is not signed');
      const digest = await sha256WithZeroedRanges(file, embedded.zeroRanges);
      const first = await verifyEmbeddedSignature(file, embedded, undefined);
      const trusted = { fingerprint: first.fingerprint, publicKey: first.publicKey };
      const key = embedded.key;
      const sig = embedded.signature;
      const plain = await measure(runs, () => sha256File(file));
      // The pipeline's way: the signed digest rides on the SHA-256 read of the download.
      const shared = await measure(runs, () => {
        const tap = new ZeroedDigestTap();
        return sha256File(file, tap).then(() => {
          if (tap.result()?.digest !== digest) throw new Error('the tap disagrees with the file pass');
        });
      });
      const sections = await measure(runs, () => readEmbeddedSignature(file));
      const pass = await measure(runs, () => sha256WithZeroedRanges(file, embedded.zeroRanges));
      const crypto = await measure(runs, () => {
        const block = parseKeyBlock(key);
        return Promise.resolve(
          checkDetached(parseDetachedSignature(sig), Buffer.from(digest), block.primary, block),
        );
      });
      const whole = await measure(runs, async () =>
        verifyEmbeddedSignature(file, (await readEmbeddedSignature(file)) ?? embedded, trusted),
      );
      const precomputed = { digest, ranges: embedded.zeroRanges };
      const withShared = await measure(runs, async () =>
        verifyEmbeddedSignature(file, (await readEmbeddedSignature(file)) ?? embedded, trusted, precomputed),
      );
      const f = (m: { cpu: number; wall: number }): string => `${m.cpu.toFixed(1)} / ${m.wall.toFixed(1)}`;
      const extra = { cpu: shared.cpu - plain.cpu, wall: shared.wall - plain.wall };
      rows.push([
        v.label,
        f(plain),
        f(shared),
        f(extra),
        f(pass),
        f(sections),
        f(crypto),
        f(withShared),
        f(whole),
      ]);
    }
    const header = [
      'signature',
      'SHA-256 (ref)',
      'SHA-256 + signed digest, one read',
      'signed digest in that pass',
      'signed digest, own read',
      'read sections',
      'OpenPGP verify',
      'stage, digest shared',
      'stage, own read',
    ];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const line = (cells: string[]): string =>
      `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
    console.log(
      `embedded-signature check on a ${sizeMiB} MiB AppImage, median of ${runs} runs, ms CPU / ms wall; 0 requests\n`,
    );
    console.log(line(header));
    console.log(line(widths.map((w) => '-'.repeat(w))));
    for (const r of rows) console.log(line(r));
  } finally {
    await gpg.dispose();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
