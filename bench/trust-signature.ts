/**
 * Cost of the embedded-signature check per app on an update: AppImages signed by GnuPG (RSA 2048
 * binary/SHA-1 like older files, Ed25519 text/SHA-256 like newer ones), verified as the update
 * pipeline does. Columns split the check into reading the sections, the zeroed-section SHA-256 pass
 * over the file, and the OpenPGP verification itself; the plain SHA-256 of the file (what the
 * download check already costs) is the reference. CPU is user+system of this process.
 *
 *   npx tsx bench/trust-signature.ts [--size-mib 200] [--runs 5]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGpgHome } from '../fixtures/gpg.js';
import { makeAppImage } from '../fixtures/make-appimage.js';
import { readEmbeddedSignature, sha256WithZeroedRanges } from '../src/appimage/embedded-signature.js';
import { verifyEmbeddedSignature } from '../src/appimage/signature-verify.js';
import { sha256File } from '../src/appimage/verify.js';
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
  const sizeMiB = numberArg('size-mib', 200);
  const runs = numberArg('runs', 5);
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
      const f = (m: { cpu: number; wall: number }): string => `${m.cpu.toFixed(1)} / ${m.wall.toFixed(1)}`;
      rows.push([
        v.label,
        f(plain),
        f(sections),
        f(pass),
        f(crypto),
        f(whole),
        f({ cpu: whole.cpu - pass.cpu, wall: whole.wall - pass.wall }),
      ]);
    }
    const header = [
      'signature',
      'plain SHA-256 (ref)',
      'read sections',
      'zeroed SHA-256 pass',
      'OpenPGP verify',
      'whole check',
      'check without the pass',
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
