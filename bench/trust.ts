/**
 * The cost of provenance checks. N hub apps whose releases carry attestations (signed by a test
 * CA, half inline, half through `bundle_url` Snappy blobs) are updated by the test-hooks build of the
 * CLI with `provenance: off` and with `provenance: require`, then checked and updated again with
 * nothing changed. Each CLI child reports its own CPU time (a preload writes `process.cpuUsage()`).
 * In-process, the stage alone is timed per app, and real public-good bundles from the corpus are
 * verified to show the cost of transparency-log and SCT checks.
 *
 *   npx tsx bench/trust.ts [--apps 20] [--smoke]
 *
 * Targets: zero extra requests on a repeated check/update; under 150 ms CPU per app on an update.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSim } from '../sim/index.js';
import { checkAttestation } from '../src/trust/provenance/check-attestation.js';
import { checkProvenance } from '../src/trust/provenance/stage.js';
import { sourceFor } from '../src/sources/index.js';
import { loadRoot, type TrustedRootJson } from '../src/trust/provenance/trusted-root.js';
import { createTestCa } from '../test/helpers/attest-ca.js';
import { corpusFolder } from '../test/helpers/corpus.js';
import { disposeFixtureAppImages, fixtureAppImage } from '../test/helpers/fixture-appimages.js';
import { sha256 } from '../test/helpers/sha256.js';
import { disposeTestHooksCli, testHooksCli } from '../test/helpers/test-hooks-cli.js';
import { makeTmpHome, type TmpHome } from '../test/helpers/tmp-home.js';
import { forge, makeContext, makeDeps, makeSettings } from '../test/sources/support.js';
import { numberArg } from './cli-args.js';
import { runNodeChild } from './node-child.js';

const apps = numberArg('apps', 20, 2);
const BUILD = 'https://slsa.dev/provenance/v1';

interface Row {
  label: string;
  wallMs: number;
  cpuMs: number;
  requests: number;
  attestation: number;
  blobs: number;
  statuses: string;
}

const sim = await startSim();
const ca = createTestCa('bench');
const scratch = await mkdtemp(join(tmpdir(), 'ak-bench-trust-'));
const homes: TmpHome[] = [];
try {
  const cli = await testHooksCli();
  const preload = join(scratch, 'cpu.mjs');
  await writeFile(
    preload,
    "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.AK_BENCH_CPU, JSON.stringify(process.cpuUsage())));\n",
  );
  const body = await fixtureAppImage('bench', '1.0.0');
  const hex = sha256(body);
  const names = Array.from({ length: apps }, (_, i) => `app${String(i).padStart(3, '0')}`);
  for (const [i, name] of names.entries()) {
    const url = sim.putAsset(`/dl/${name}/${name}-x86_64.AppImage`, body);
    sim.hub.setLatest('bench', name, {
      tag: 'v1.0.0',
      assets: [{ name: `${name}-x86_64.AppImage`, url, digest: `sha256:${hex}` }],
    });
    const bundle = ca.bundle(
      {
        san: `https://github.com/bench/${name}/.github/workflows/release.yml@refs/tags/v1.0.0`,
        sourceRepository: `https://github.com/bench/${name}`,
        sourceRef: 'refs/tags/v1.0.0',
      },
      { predicateType: BUILD, subject: [{ name: `${name}-x86_64.AppImage`, digest: { sha256: hex } }] },
    );
    sim.hub.setAttestations('bench', name, hex, [bundle], i % 2 === 0 ? 'inline' : 'bundle_url');
  }

  async function home(provenance: 'off' | 'require'): Promise<TmpHome> {
    const h = await makeTmpHome();
    homes.push(h);
    await h.writeConfig(
      [
        `storage_dir: ${join(h.root, 'storage')}`,
        'manage_desktop_files: false',
        `hub_release_api_url: ${sim.hubApiUrl}`,
        `hub_release_web_url: ${sim.url}`,
        'hub_proxy: false',
        `provenance: ${provenance}`,
        '',
      ].join('\n'),
    );
    for (const name of names) {
      await h.writeRecipe(
        name,
        [
          'strategy:',
          '  strategy: forge',
          `  repository: ${sim.url}/bench/${name}`,
          '  asset_match: "*.AppImage"',
          `name: ${name}`,
          '',
        ].join('\n'),
      );
    }
    return h;
  }

  async function run(h: TmpHome, label: string, args: string[]): Promise<Row> {
    const cpuFile = join(scratch, 'cpu.json');
    const env = {
      ...h.env,
      APPIMAGE_KEEPER_PROXY_BUILTINS: '',
      APPIMAGE_KEEPER_TEST_TRUSTED_ROOT: ca.trustedRootFile,
      AK_BENCH_CPU: cpuFile,
    };
    sim.clearRequests();
    const t0 = performance.now();
    const { stdout } = await runNodeChild(['--import', preload, cli, '--json', ...args], env);
    const wallMs = performance.now() - t0;
    const cpu = JSON.parse(await readFile(cpuFile, 'utf8')) as { user: number; system: number };
    const json = JSON.parse(stdout) as { apps: { status: string }[] };
    const counts = new Map<string, number>();
    for (const a of json.apps) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
    const attestation = sim.requests.filter((r) => r.path.includes('/attestations/'));
    const blobs = sim.requests.filter((r) => r.path.startsWith('/attestation-blobs/'));
    return {
      label,
      wallMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      requests: sim.requests.length,
      attestation: attestation.length,
      blobs: blobs.length,
      statuses: [...counts].map(([s, n]) => `${n} ${s}`).join(', '),
    };
  }

  const off = await home('off');
  const on = await home('require');
  const rows = [
    await run(off, 'update, provenance: off', ['update']),
    await run(on, 'update, provenance: require', ['update']),
    await run(off, 'check again, off', ['check']),
    await run(on, 'check again, require', ['check']),
    await run(off, 'update again, off', ['update']),
    await run(on, 'update again, require', ['update']),
  ];
  console.log(
    `${apps} hub apps (half inline bundles, half bundle_url), Node ${process.version}, ${process.platform}/${process.arch}\n`,
  );
  console.log('| run | wall | CPU (whole CLI) | requests | attestation requests | blob requests | apps |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${r.wallMs.toFixed(0)} ms | ${r.cpuMs.toFixed(0)} ms | ${r.requests} | ${r.attestation} | ${r.blobs} | ${r.statuses} |`,
    );
  }
  const [updOff, updOn, chkOff, chkOn, againOff, againOn] = rows as [Row, Row, Row, Row, Row, Row];
  const extraCpuPerApp = (updOn.cpuMs - updOff.cpuMs) / apps;

  // The stage alone, in this process: one app at a time after a warm-up.
  const root = loadRoot('public-good', ca.trustedRoot as unknown as TrustedRootJson);
  const stageCpu: number[] = [];
  let firstCpu = 0;
  for (const [i, name] of names.entries()) {
    const settings = makeSettings(forge(`${sim.url}/bench/${name}`), {
      hub_release_api_url: sim.hubApiUrl,
      hub_release_web_url: sim.url,
      provenance: 'require',
    });
    const res = {
      version: 'v1.0.0',
      identity: 'x',
      url: '',
      assetName: `${name}-x86_64.AppImage`,
      sha256: hex,
    };
    const c0 = process.cpuUsage();
    const deps = makeDeps(makeContext());
    const attestations = sourceFor(settings).attestations?.(deps);
    await checkProvenance(settings, res, undefined, { ...deps, attestations }, () => root);
    const c = process.cpuUsage(c0);
    if (i > 0) stageCpu.push((c.user + c.system) / 1000);
    else firstCpu = (c.user + c.system) / 1000;
  }
  const avg = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

  console.log('\n| measure | value | target |');
  console.log('| --- | --- | --- |');
  console.log(
    `| extra requests, repeated check | ${chkOn.requests - chkOff.requests} (attestation ${chkOn.attestation}) | 0 |`,
  );
  console.log(
    `| extra requests, repeated update | ${againOn.requests - againOff.requests} (attestation ${againOn.attestation}) | 0 |`,
  );
  console.log(
    `| extra requests per app, update | ${((updOn.requests - updOff.requests) / apps).toFixed(2)} | 1 API + 1 per linked bundle |`,
  );
  console.log(`| extra CPU per app, whole CLI update | ${extraCpuPerApp.toFixed(1)} ms | < 150 ms |`);
  console.log(
    `| CPU per app, stage alone (test CA, TSA timestamp) | ${avg(stageCpu).toFixed(1)} ms | < 150 ms |`,
  );
  console.log(
    `| CPU of the first app, stage alone (loads the root, opens the connection) | ${firstCpu.toFixed(1)} ms | < 150 ms |`,
  );

  const { dir, skip } = corpusFolder('attestations');
  if (skip) {
    console.log(`\nskipped the public-good measurement: ${skip}`);
  } else {
    const json = JSON.parse(readFileSync(join(dir, 'sigstore-js-2.1.0-bundle.json'), 'utf8')) as unknown;
    const pg = loadRoot(
      'public-good',
      JSON.parse(readFileSync(join(dir, 'trusted_root.json'), 'utf8')) as TrustedRootJson,
    );
    const target = {
      owner: 'sigstore',
      repo: 'sigstore-js',
      hosts: ['github.com'],
      sha256: '0'.repeat(64),
      assetName: 'x',
      tag: 'v',
    };
    const times: number[] = [];
    for (let i = 0; i < 21; i++) {
      const c0 = process.cpuUsage();
      try {
        checkAttestation(json, target, () => pg);
      } catch {
        // The sigstore-js statement names its tarball by SHA-512: the subject check fails last, after all the work.
      }
      const c = process.cpuUsage(c0);
      if (i > 0) times.push((c.user + c.system) / 1000);
    }
    console.log(
      `| CPU per real public-good bundle (Rekor proof + SCT + signature) | ${avg(times).toFixed(1)} ms | < 150 ms |`,
    );
  }
  const ok =
    chkOn.attestation === 0 &&
    againOn.attestation === 0 &&
    chkOn.requests === chkOff.requests &&
    extraCpuPerApp < 150;
  console.log(`\ntargets met: ${ok ? 'yes' : 'NO'}`);
} finally {
  await sim.stop();
  ca.dispose();
  await Promise.all(homes.map((h) => h.cleanup()));
  await rm(scratch, { recursive: true, force: true });
  await disposeTestHooksCli();
  await disposeFixtureAppImages();
}
