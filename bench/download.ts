/**
 * Download benchmark: our plain and segmented downloader against curl and aria2c, throttled
 * (per-connection limit, like a CDN edge) and unthrottled, on one generated asset served by the sim.
 *
 *   npx tsx bench/download.ts [--size-mib 512] [--throttle-mbps 25] [--reps 3] [--smoke]
 *   npx tsx bench/download.ts --resume [--size-mib 512]   (only the "killed at 60% and resumed" rows)
 *
 * Our downloads run in a child process (`--child`) so their peak RSS is their own. Like the shipped
 * CLI, the child is this file bundled by esbuild and run by plain node (no tsx/esbuild service in
 * the measured process). Every tool runs under `/usr/bin/time -v` when present (else a python
 * getrusage wrapper) for its max RSS.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { median, numberArg } from './cli-args.js';
import type { Sim } from '../sim/index.js';

interface Run {
  scenario: string;
  tool: string;
  seconds: number;
  maxRssMb: number | undefined;
  ok: boolean;
  /** CPU seconds (user + system) of the downloading tool, the simulator and the proxy (proxied rows). */
  cpu?: { client: number; server: number; proxy: number } | undefined;
  /** The client's own CPU seconds for this transfer, from /usr/bin/time. */
  clientCpu?: number | undefined;
}

interface ChildReport {
  ms: number;
  sha256: string;
  size: number;
  connections: number;
  segmented: boolean;
  resumedBytes?: number;
}

const SEED = 4242;
const HERE = fileURLToPath(import.meta.url);

// tinyproxy's pid, and what the simulator (in this process) and the proxy spent during the last
// measured run: counted around the tool alone, not the checking of its file that follows.
let proxyPid: number | undefined;
let lastSides = { server: NaN, proxy: NaN };

/** Runs a command, returning wall time, its stdout and the peak RSS of the measured process. */
async function measure(
  cmd: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ seconds: number; stdout: string; maxRssMb: number | undefined; cpu: number | undefined }> {
  const useTime = existsSync('/usr/bin/time');
  const argv = useTime
    ? ['/usr/bin/time', '-v', ...cmd]
    : [
        'python3',
        '-c',
        'import resource,subprocess,sys;r=subprocess.run(sys.argv[1:]);' +
          'sys.stderr.write("Maximum resident set size (kbytes): %d\\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss);' +
          'sys.exit(r.returncode)',
        ...cmd,
      ];
  const started = process.hrtime.bigint();
  const sides = { server: cpuSeconds(process.cpuUsage()), proxy: processCpuSeconds(proxyPid) };
  const child = spawn(argv[0] ?? 'false', argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  lastSides = {
    server: cpuSeconds(process.cpuUsage()) - sides.server,
    proxy: processCpuSeconds(proxyPid) - sides.proxy,
  };
  if (code !== 0) throw new Error(`${cmd.join(' ')} exited ${code}: ${stderr.slice(-2000)}`);
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
  const sys = /System time \(seconds\): ([\d.]+)/.exec(stderr);
  const cpu = user && sys ? Number(user[1]) + Number(sys[1]) : undefined;
  return { seconds, stdout, maxRssMb: m ? Number(m[1]) / 1024 : undefined, cpu };
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), hash);
  return hash.digest('hex');
}

/** Bundles this file for the child processes, the way scripts/build.mjs bundles the CLI. */
async function bundleChild(dir: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = join(dir, 'bench-download-child.mjs');
  await build({
    entryPoints: [HERE],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  return outfile;
}

async function runOurs(
  childScript: string,
  url: string,
  dir: string,
  segmented: boolean,
  want: string,
  proxy?: string,
): Promise<Omit<Run, 'scenario' | 'tool'>> {
  const { stdout, maxRssMb, cpu } = await measure(
    [process.execPath, childScript, '--child', url, dir, segmented ? '1' : '0'],
    proxy ? { ...process.env, http_proxy: proxy, https_proxy: proxy, no_proxy: '' } : process.env,
  );
  const report = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as ChildReport;
  // The child's own timer covers the download (fsync included) but not node + tsx start-up.
  return {
    seconds: report.ms / 1000,
    maxRssMb,
    clientCpu: cpu,
    ok: report.sha256 === want && report.segmented === segmented,
  };
}

async function runTool(
  kind: 'curl' | 'curl-verified' | 'aria2c',
  url: string,
  dir: string,
  want: string,
  proxy?: string,
): Promise<Omit<Run, 'scenario' | 'tool'>> {
  const out = join(dir, `${kind}.bin`);
  // `curl-verified` does the work ours does besides transferring: hash the file and fsync it.
  const cmd =
    kind === 'curl'
      ? ['curl', '-s', ...(proxy ? ['--noproxy', '', '-x', proxy] : []), '-o', out, url]
      : kind === 'curl-verified'
        ? [
            'sh',
            '-c',
            'curl -s $3 -o "$1" "$2" && sha256sum "$1" >/dev/null && sync "$1"',
            'sh',
            out,
            url,
            proxy ? `-x ${proxy}` : '',
          ]
        : ['aria2c', '-x4', '-s4', '--allow-overwrite=true', '-q', '-d', dir, '-o', `${kind}.bin`, url];
  const { seconds, maxRssMb, cpu } = await measure(cmd);
  const ok = (await sha256File(out)) === want;
  await rm(out, { force: true });
  return { seconds, maxRssMb, ok, clientCpu: cpu };
}

function cpuSeconds(u: NodeJS.CpuUsage): number {
  return (u.user + u.system) / 1e6;
}

// utime + stime of a process from /proc (clock ticks of 1/100 s on Linux); NaN when unreadable.
function processCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

async function main(): Promise<void> {
  const { startSim, generatedSha256 } = await import('../sim/index.js');
  // Under --smoke still two 4 MiB segments: the segmented rows must segment.
  const sizeMib = numberArg('size-mib', 512, 8);
  const throttle = numberArg('throttle-mbps', 25) * 1_000_000;
  const reps = numberArg('reps', 3, 1);
  const size = sizeMib * 1024 * 1024;
  const want = generatedSha256(size, SEED);
  const sim = await startSim();
  const dir = await mkdtemp(join(tmpdir(), 'ak-bench-'));
  const url = sim.putAsset('/bench/Big-x86_64.AppImage', { size, seed: SEED });
  const runs: Run[] = [];
  if (process.argv.includes('--resume')) {
    try {
      await resumeRows(await bundleChild(dir), sim, url, dir, size, want);
    } finally {
      await sim.stop();
      await rm(dir, { recursive: true, force: true });
    }
    return;
  }
  // aria2c is not among the test tools (scripts/ensure-tools.mjs): without it its row is left out.
  const hasAria2c = spawnSync('aria2c', ['--version'], { stdio: 'ignore' }).error === undefined;
  if (!hasAria2c) process.stderr.write('aria2c is not installed: its rows are left out\n');
  // `--proxy-only`: just the rows through tinyproxy (ours and curl through the same proxy).
  const proxyOnly = process.argv.includes('--proxy-only');
  const { startTinyproxy } = await import('../test/helpers/tinyproxy.js');
  const proxy = await startTinyproxy();
  proxyPid = proxy.pid;
  try {
    const childScript = await bundleChild(dir);
    for (const [tool, fn] of [
      ['ours via tinyproxy', () => runOurs(childScript, url, dir, false, want, proxy.url)],
      ['ours, segmented x4 via tinyproxy', () => runOurs(childScript, url, dir, true, want, proxy.url)],
      ['curl via tinyproxy', () => runTool('curl', url, dir, want, proxy.url)],
      ['curl + sha256sum + fsync via tinyproxy', () => runTool('curl-verified', url, dir, want, proxy.url)],
    ] as const) {
      const results: Omit<Run, 'scenario' | 'tool'>[] = [];
      for (let i = 0; i < reps; i++) {
        const r = await fn();
        results.push({ ...r, cpu: { client: r.clientCpu ?? NaN, ...lastSides } });
      }
      const seconds = median(results.map((r) => r.seconds));
      const cpuOf = (k: 'client' | 'server' | 'proxy'): number =>
        median(results.map((r) => r.cpu?.[k] ?? NaN));
      runs.push({
        scenario: 'proxied',
        tool,
        seconds,
        maxRssMb: undefined,
        ok: results.every((r) => r.ok),
        cpu: { client: cpuOf('client'), server: cpuOf('server'), proxy: cpuOf('proxy') },
      });
      process.stderr.write(`proxied ${tool}: ${seconds.toFixed(2)} s\n`);
    }
    const proxied = (await proxy.requests()).gets.length;
    if (proxied < 2 * reps) throw new Error(`only ${proxied} requests went through tinyproxy`);
    for (const scenario of proxyOnly ? [] : (['throttled', 'unthrottled'] as const)) {
      sim.clearFaults();
      if (scenario === 'throttled')
        sim.fault('/bench/Big-x86_64.AppImage', { throttleBytesPerSec: throttle });
      // Throttled runs take seconds each and vary little; unthrottled ones are repeated (median).
      const n = scenario === 'throttled' ? 1 : reps;
      const tools: [string, () => Promise<Omit<Run, 'scenario' | 'tool'>>][] = [
        ['ours, plain', () => runOurs(childScript, url, dir, false, want)],
        ['ours, segmented x4', () => runOurs(childScript, url, dir, true, want)],
        ['curl', () => runTool('curl', url, dir, want)],
        ['curl + sha256sum + fsync', () => runTool('curl-verified', url, dir, want)],
        ['aria2c -x4 -s4', () => runTool('aria2c', url, dir, want)],
      ];
      for (const [tool, fn] of tools) {
        if (tool.startsWith('aria2c') && !hasAria2c) continue;
        const results: Omit<Run, 'scenario' | 'tool'>[] = [];
        for (let i = 0; i < n; i++) results.push(await fn());
        const seconds = median(results.map((r) => r.seconds));
        const rss = results.map((r) => r.maxRssMb).filter((v): v is number => v !== undefined);
        runs.push({
          scenario,
          tool,
          seconds,
          maxRssMb: rss.length ? Math.max(...rss) : undefined,
          ok: results.every((r) => r.ok),
        });
        process.stderr.write(`${scenario} ${tool}: ${seconds.toFixed(2)} s\n`);
      }
    }
  } finally {
    await proxy.stop();
    await sim.stop();
    await rm(dir, { recursive: true, force: true });
  }

  const lines = [
    `Download of a ${sizeMib} MiB asset from the loopback sim (${scenarioNote(throttle)}; unthrottled: median of ${reps}).`,
    '',
    '| scenario | tool | wall s | MB/s | peak RSS MB | bytes ok |',
    '|---|---|---:|---:|---:|---|',
    ...runs.map(
      (r) =>
        `| ${r.scenario} | ${r.tool} | ${r.seconds.toFixed(2)} | ${(size / 1e6 / r.seconds).toFixed(0)} | ` +
        `${r.maxRssMb === undefined ? 'n/a' : r.maxRssMb.toFixed(0)} | ${r.ok ? 'yes' : 'NO'} |`,
    ),
    '',
    ...cpuTable(runs),
    ...targets(runs),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

// Through the proxy every process shares the machine's cores: the rows' CPU seconds (medians) show
// what each side spends per transfer, the budget a client's own work competes for.
function cpuTable(runs: Run[]): string[] {
  const proxied = runs.filter((r) => r.cpu);
  if (proxied.length === 0) return [];
  const f = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
  return [
    'CPU seconds per proxied transfer (user + system, medians): the client, the simulator, tinyproxy',
    '',
    '| tool | wall s | client CPU s | sim CPU s | tinyproxy CPU s | all CPU s / wall s |',
    '|---|---:|---:|---:|---:|---:|',
    ...proxied.map((r) => {
      const c = r.cpu ?? { client: NaN, server: NaN, proxy: NaN };
      const all = c.client + c.server + c.proxy;
      return `| ${r.tool} | ${r.seconds.toFixed(2)} | ${f(c.client)} | ${f(c.server)} | ${f(c.proxy)} | ${f(all / r.seconds)} |`;
    }),
    '',
  ];
}

function scenarioNote(throttle: number): string {
  return `throttled: ${(throttle / 1e6).toFixed(0)} MB/s per connection`;
}

function targets(runs: Run[]): string[] {
  const t = (scenario: string, tool: string): number =>
    runs.find((r) => r.scenario === scenario && r.tool === tool)?.seconds ?? NaN;
  // Throughput ratio = curl's time / ours through the same tinyproxy.
  const proxied = t('proxied', 'curl via tinyproxy') / t('proxied', 'ours via tinyproxy');
  const sameWork =
    t('proxied', 'curl + sha256sum + fsync via tinyproxy') / t('proxied', 'ours via tinyproxy');
  const proxyLine =
    `- through tinyproxy: ours (plain) has ${proxied.toFixed(2)}x curl's throughput (target >= 0.9: ${proxied >= 0.9 ? 'met' : 'MISSED'}), ` +
    `${sameWork.toFixed(2)}x that of curl + sha256sum + fsync`;
  if (!runs.some((r) => r.scenario !== 'proxied')) return [proxyLine];
  const speedup = t('throttled', 'ours, plain') / t('throttled', 'ours, segmented x4');
  const vsAria = t('throttled', 'ours, segmented x4') / t('throttled', 'aria2c -x4 -s4');
  const plainVsCurl = t('unthrottled', 'ours, plain') / t('unthrottled', 'curl');
  const segVsCurl = t('unthrottled', 'ours, segmented x4') / t('unthrottled', 'curl');
  const plainVsVerified = t('unthrottled', 'ours, plain') / t('unthrottled', 'curl + sha256sum + fsync');
  const ourRss = Math.max(
    ...runs.filter((r) => r.tool.startsWith('ours')).map((r) => r.maxRssMb ?? Infinity),
  );
  const mark = (ok: boolean): string => (ok ? 'met' : 'MISSED');
  return [
    `- throttled: segmented is ${speedup.toFixed(2)}x plain (target >= 3.5x: ${mark(speedup >= 3.5)})`,
    `- throttled: segmented takes ${vsAria.toFixed(2)}x aria2c's time (target <= 1.10: ${mark(vsAria <= 1.1)})`,
    `- unthrottled: plain takes ${plainVsCurl.toFixed(2)}x curl's time, segmented ${segVsCurl.toFixed(2)}x ` +
      `(target <= 1.15: ${mark(Math.min(plainVsCurl, segVsCurl) <= 1.15)})`,
    `- unthrottled, same work (hash + fsync): plain takes ${plainVsVerified.toFixed(2)}x the time of curl + sha256sum + fsync`,
    `- our peak RSS ${ourRss.toFixed(0)} MB (target < 100: ${mark(ourRss < 100)})`,
    proxyLine,
  ];
}

/**
 * "Killed at 60% and resumed": a child downloads with a partial in `dir/cache` and SIGKILLs itself
 * once 60% is on disk; a second child resumes. The fraction refetched is what the second run asked
 * for with Range (its probe's body, dropped at once, is not counted) over the size.
 */
async function resumeRows(
  childScript: string,
  sim: Sim,
  url: string,
  dir: string,
  size: number,
  want: string,
): Promise<void> {
  const lines = [
    `Killed at 60% of a ${(size / 1024 ** 2).toFixed(0)} MiB download (SIGKILL), then resumed by a new process.`,
    '',
    '| download | kept from the killed run | asked again (Range) | refetched | resume wall s | bytes ok |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
  ];
  const verdicts: string[] = [''];
  for (const segmented of [false, true]) {
    const seg = segmented ? '1' : '0';
    const killed = await new Promise<NodeJS.Signals | null>((resolve) => {
      const c = spawn(process.execPath, [childScript, '--child', url, dir, seg, '--kill-at', '0.6'], {
        stdio: 'ignore',
      });
      c.on('close', (_code, signal) => resolve(signal));
    });
    sim.clearRequests();
    const { stdout } = await measure([
      process.execPath,
      childScript,
      '--child',
      url,
      dir,
      seg,
      '--kill-at',
      '0',
    ]);
    const report = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as ChildReport & {
      resumedBytes: number;
    };
    let asked = 0;
    for (const r of sim.requests) {
      const m = /^bytes=(\d+)-(\d*)$/.exec(String(r.headers.range ?? ''));
      if (m) asked += (m[2] === '' ? size - 1 : Number(m[2])) - Number(m[1]) + 1;
    }
    const pct = (n: number): string => `${((100 * n) / size).toFixed(1)} %`;
    lines.push(
      `| ${segmented ? 'segmented x4' : 'plain'} | ${pct(report.resumedBytes ?? 0)} | ${pct(asked)} | ` +
        `${pct(size - (report.resumedBytes ?? 0))} | ${(report.ms / 1000).toFixed(2)} | ` +
        `${report.sha256 === want && killed === 'SIGKILL' ? 'yes' : 'NO'} |`,
    );
    const worst = (size - (report.resumedBytes ?? 0)) / size;
    verdicts.push(
      `- ${segmented ? 'segmented' : 'plain'}: refetched ${(100 * worst).toFixed(1)} % (target <= 45 %: ${worst <= 0.45 ? 'met' : 'MISSED'})`,
    );
  }
  process.stdout.write(`${[...lines, ...verdicts].join('\n')}\n`);
}

/** Child mode: one download, then a JSON line with the timing and digest. */
async function child(url: string, dir: string, segmented: boolean, killAt = 0): Promise<void> {
  const { download } = await import('../src/transfer/download/index.js');
  const { httpSettingsFor } = await import('../src/http/proxy-settings.js');
  const started = process.hrtime.bigint();
  const r = await download({
    url,
    // The environment's proxy variables, as a run reads them (the proxied rows set them).
    http: httpSettingsFor(process.env),
    destDir: dir,
    tempPrefix: '.ak-bench-',
    segmented,
    connections: 4,
    stallTimeoutMs: 30_000,
    // With --kill-at the partial lives in `dir/cache` and the process dies at that fraction.
    ...(killAt >= 0 && process.argv.includes('--kill-at') ? { resumeDir: join(dir, 'cache') } : {}),
    onProgress: (received, total) => {
      if (killAt > 0 && total !== undefined && received >= killAt * total)
        process.kill(process.pid, 'SIGKILL');
    },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  await rm(r.path, { force: true });
  const report: ChildReport = {
    ms,
    sha256: r.sha256,
    size: r.size,
    connections: r.connections,
    segmented: r.segmented,
    resumedBytes: r.resumedBytes,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

const childAt = process.argv.indexOf('--child');
if (childAt >= 0) {
  const [url, dir, seg] = process.argv.slice(childAt + 1);
  const killAt = process.argv.indexOf('--kill-at');
  await child(url ?? '', dir ?? '', seg === '1', killAt >= 0 ? Number(process.argv[killAt + 1]) : 0);
} else {
  await main();
}
