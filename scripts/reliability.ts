/**
 * Writes docs/reliability.md from a fresh run of the fault and hostile-input suites and of the
 * `kill -9` soak, so the figures there are always those of the code they describe.
 *
 *   npm run reliability                # build, run the suites and a 50-trial soak, write the doc
 *   npx tsx scripts/reliability.ts --trials 10 --out /tmp/r.md
 *
 * Exits 1 when a suite fails or the soak finds a corrupt install, a lost previous version or a run
 * that does not converge (the doc is written either way, showing the failures).
 */
import { spawnSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SOAK_PHASES, type SoakFigures, type SoakResult } from '../test/helpers/kill-soak.js';
import { REPO_ROOT } from '../test/helpers/run-cli.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const trials = Number(arg('trials') ?? 50);
const seed = Number(arg('seed') ?? 1);
const out = arg('out') ?? join(REPO_ROOT, 'docs', 'reliability.md');

/** One suite of the report: what it attacks and its test files. */
interface Suite {
  kind: 'fault' | 'hostile input';
  name: string;
  covers: string;
  files: string[];
  /** Set for the suite's files: a suite that runs smaller in the test suite runs in full here. */
  env?: Record<string, string>;
}

// Add a suite here when it injects faults or feeds hostile input; the doc lists exactly these.
const SUITES: Suite[] = [
  {
    kind: 'hostile input',
    name: 'catalogues',
    covers:
      'malformed and deeply nested feeds, junk items and names, an AM script whose SITE and API call disagree, a dropped network (stale cache with a note); tampered cache files (wrong shapes and types, fields past their bounds, header-splitting validators, a FIFO, a folder, a huge file: never used, refetched or missing with a note) and terminal controls in cached entries (escaped, in --json too); adopt by match with an HTML page for a feed and a dropped list (a note, never a crash), tied and weak matches never taken, an archived repository refused',
    files: [
      'test/sources/catalogues/readers.test.ts',
      'test/sources/catalogues/cache.test.ts',
      'test/e2e/search/cache-hit.test.ts',
      'test/e2e/adopt/catalogue.test.ts',
      'test/e2e/adopt/adopt-match.test.ts',
    ],
  },
  {
    kind: 'hostile input',
    name: 'AM scripts',
    covers:
      'a SITE hidden before the real one in a here-document, an uncalled function, `if false`, a case, a subshell, a substitution, an && list, a prefix, export/read/printf -v/eval, ${SITE:=}, or set twice to different values (refused, naming the line and block; nothing fetched or written); SITE in comments and strings ignored; unclosed quotes, blocks and here-documents, nesting and size past their bounds, 1,000 mutated scripts (refused, never thrown on); 300 generated scripts checked against bash itself',
    files: [
      'test/sources/catalogues/am-script.test.ts',
      'test/sources/catalogues/shell-writes.test.ts',
      'test/e2e/adopt/am-site.test.ts',
    ],
  },
  {
    kind: 'hostile input',
    name: 'catalogue text',
    covers:
      'catalogue names with shell syntax (`&&`, `$(…)`, backquotes, `;`, `|`, quotes, globs), leading dashes (`-rf`, `--config-dir=…`), spaces, control, zero-width and bidi characters, look-alike and fullwidth letters, and a download URL holding `&`: every add command that search and add NAME print, read by a real /bin/sh, reaches add as exactly that entry (after `--` for a dash, by repository when the name cannot be shown) and runs nothing else; doctor and set-up hints naming such paths; a confident name match whose release fits nothing of the file stays a suggestion',
    files: [
      'test/app/add/catalogue-name.test.ts',
      'test/e2e/search/pasteable-names.test.ts',
      'test/render/setup-hints.test.ts',
      'test/app/adopt-match-fit.test.ts',
    ],
  },
  {
    kind: 'hostile input',
    name: 'catalogue memory',
    covers:
      'AM lists of 10,000 long entries, of 1.6 million short lines and of one 32 MiB line, a keeper index holding one 32 MiB string, an AppImageHub feed of 10,000 items, each just under the 32 MiB cap: `search` fetching and parsing it, then reading the cache back, every run under 150 MB peak RSS (a failure names the run and its figure)',
    files: ['test/sources/catalogues/memory.test.ts'],
    env: { KEEPER_RELIABILITY: '1' },
  },
  {
    kind: 'fault',
    name: 'proxies',
    covers:
      "hostile proxy values (PROXY_INVALID, never direct), 407/401 refusals, a proxy down or silent (offline, exit 75, nothing written), a CONNECT refused or the proxy's own error page (PROXY_REFUSED naming the proxy), credentials never shown, token kept from plain-http proxies; a SOCKS5 server refusing the password (PROXY_AUTH_REQUIRED, nothing direct); zsync ranges and attestations never bypass the proxy",
    files: [
      'test/http/proxy-env.test.ts',
      'test/e2e/update/proxy.test.ts',
      'test/e2e/update/proxy-offline.test.ts',
      'test/e2e/update/socks.test.ts',
      'test/e2e/zsync/through-proxy.test.ts',
      'test/e2e/provenance/through-proxy.test.ts',
    ],
  },
  {
    kind: 'fault',
    name: 'downloader faults',
    covers: 'dropped, stalled, short, 5xx, wrong ranges; resume and retry',
    files: ['test/transfer/download/faults.test.ts'],
  },
  {
    kind: 'fault',
    name: 'update fault matrix',
    covers: 'one fault per app in one real run of the CLI; installed versions untouched',
    files: ['test/e2e/update/fault-matrix.test.ts'],
  },
  {
    kind: 'fault',
    name: 'interrupted and concurrent runs',
    covers: '`kill -9` mid-download, a second run racing for the lock',
    files: ['test/e2e/update/interrupt-lock.test.ts'],
  },
  {
    kind: 'fault',
    name: 'install safety',
    covers:
      'truncated files, neighbours sharing a prefix or a storage_dir, foreign files, kill after the rename, damaged state, disk space',
    files: ['test/e2e/update/safety.test.ts'],
  },
  {
    kind: 'fault',
    name: 'profiles sharing a storage_dir',
    covers:
      "another profile's install refused (STORAGE_CLAIMED) with no copy and no download; stale claims; one .foreign- copy; doctor lists it",
    files: ['test/e2e/update/shared-storage.test.ts'],
  },
  {
    kind: 'fault',
    name: '--system permissions',
    covers:
      'root under umask 077 in a private mount namespace: 0755/0644 root files after update, adopt, rollback and re-integration; another user refused; group-writable storage fails doctor; a config others can change is refused (SYSTEM_CONFIG_UNSAFE)',
    files: ['test/e2e/system/system-mode.test.ts'],
  },
  {
    kind: 'hostile input',
    name: 'system symlinks',
    covers:
      "--system in a private mount namespace: a root-owned link in apps/ to a folder nobody owns, a linked recipe file nobody owns, a linked recipe folder below a group-writable folder, an absolute script_path in nobody's folder, below a group-writable one and in a sticky 1777 one: validate, update and doctor refuse each (SYSTEM_CONFIG_UNSAFE, path, owner, mode and fix) and no such resolver runs; root-only links, a link back up the tree and a loop of links still load",
    files: ['test/e2e/system/system-symlinks.test.ts'],
  },
  {
    kind: 'fault',
    name: 'closed output, full state folder',
    covers:
      'a reader closing the pipe early (no EPIPE trace); a full tmpfs state folder (the error names the file)',
    files: ['test/entry/closed-pipe.test.ts', 'test/state/full-state-dir.test.ts'],
  },
  {
    kind: 'fault',
    name: 'zsync fallback',
    covers: 'broken control files, range failures, stale targets: fall back to a full download',
    files: ['test/e2e/zsync/fallback.test.ts'],
  },
  {
    kind: 'fault',
    name: 'simulator faults',
    covers: 'the fault injection the other suites rely on',
    files: ['test/sim/faults.test.ts'],
  },
  {
    kind: 'fault',
    name: 'blockmap fallback',
    covers: 'broken or lying blockmaps: fall back to a full download',
    files: ['test/e2e/delta/blockmap-fallback.test.ts'],
  },
  {
    kind: 'hostile input',
    name: 'HTTP redirects and credentials',
    covers: 'redirect loops and foreign schemes in every phase, userinfo in URLs and redirect targets',
    files: ['test/http/client.test.ts'],
  },
  {
    kind: 'hostile input',
    name: 'terminal text',
    covers: 'control characters and huge strings from forges, scripts, files and the command line',
    files: [
      'test/render/terminal-text.test.ts',
      'test/e2e/update/hostile-text.test.ts',
      'test/cli/command-habits.test.ts',
    ],
  },
  {
    kind: 'hostile input',
    name: 'bounded JSON',
    covers:
      'nested or huge JSON in block map tails, attestation bundles and statements, state, intent and lock files',
    files: [
      'test/transfer/blockmap/hostile-tail.test.ts',
      'test/e2e/delta/blockmap-hostile.test.ts',
      'test/trust/hostile-bundle.test.ts',
      'test/e2e/provenance/hostile-bundles.test.ts',
      'test/state/hostile-files.test.ts',
    ],
  },
  {
    kind: 'hostile input',
    name: "other managers' desktop entries",
    covers:
      'links, oversized entries and foreign icon paths in AppImageLauncher/Gear Lever entries, a .icons beside the AppImage that is a link (never followed); backups never replaced, a linked backup folder refused, restore never replaces',
    files: ['test/install/foreign-entries.test.ts'],
  },
  {
    kind: 'hostile input',
    name: 'recipe regexes',
    covers: 'catastrophic and unsupported patterns',
    files: ['test/config/recipe-regex.test.ts'],
  },
  {
    kind: 'hostile input',
    name: 'self-update releases',
    covers:
      '/bin/true or a truncated build with true digests, foreign signers and CAs, wrong-version or hanging builds, symlinks at .previous',
    files: ['test/system/self-update-trust.test.ts'],
  },
  {
    kind: 'hostile input',
    name: 'one YAML reader and the validated cache',
    covers:
      'recipes, config.yml and lock files with NBSP, tabs, `FALSE:` keys, CRLF or a BOM: one verdict whatever unrelated lines they hold; a damaged, foreign-version, oversized or linked validated cache (ignored, replaced); secrets never stored; plain globs',
    files: [
      'test/config/one-verdict.test.ts',
      'test/config/validated-cache.test.ts',
      'test/config/plain-glob.test.ts',
    ],
  },
  {
    kind: 'hostile input',
    name: 'proxies and replaced assets',
    covers: 'proxy answers choosing URLs or digests, assets replaced under a tag',
    files: ['test/e2e/update/proxy-trust.test.ts', 'test/e2e/update/replaced-asset.test.ts'],
  },
  {
    kind: 'hostile input',
    name: 'SquashFS images',
    covers: 'corrupt and hostile superblocks, tables, inodes, directories',
    files: ['test/appimage/squashfs-hostile.test.ts'],
  },
  {
    kind: 'hostile input',
    name: 'verification',
    covers: 'wrong size, digest, magic, architecture; truncated payloads',
    files: ['test/appimage/verify.test.ts', 'test/appimage/payload-fit.test.ts'],
  },
  {
    kind: 'hostile input',
    name: 'app names and planted symlinks',
    covers:
      'names with `..`, `/`, control characters, 300 bytes or folding together; symlinks planted in storage, state and icon folders',
    files: [
      'test/core/app-file-name.test.ts',
      'test/core/no-follow.test.ts',
      'test/e2e/update/hostile-names.test.ts',
      'test/e2e/update/planted-symlinks.test.ts',
    ],
  },
  {
    kind: 'hostile input',
    name: 'ZIP assets',
    covers: 'escaping paths, symlinks, ambiguous entries, zip bombs, oversized entries',
    files: ['test/appimage/zip.test.ts'],
  },
  {
    kind: 'hostile input',
    name: 'state file entries',
    covers:
      'mistyped, relative or damaged entries (signature pin, attestation record, removal time) set aside; bad windows dropped',
    files: ['test/state/store.test.ts'],
  },
  {
    kind: 'hostile input',
    name: 'ELF section tables',
    covers:
      'no section names or table (unsigned, still installable); tables and signature sections that lie about their place',
    files: [
      'test/appimage/elf-sections.test.ts',
      'test/appimage/unnamed-sections.test.ts',
      'test/e2e/signature/unnamed-sections.test.ts',
    ],
  },
  {
    kind: 'hostile input',
    name: 'URLs and recipe text',
    covers:
      'credentials and control characters in URL fields, update information and AppStream; asset names no pattern selects',
    files: [
      'test/config/url-fields.test.ts',
      'test/app/add/recipe-text.test.ts',
      'test/e2e/adopt/recipe-hostile.test.ts',
    ],
  },
  {
    kind: 'hostile input',
    name: 'release times and the cooldown',
    covers:
      'publication times unparseable, a megabyte long or in the future (counted from first sight); durations out of bounds or malformed; broken first-seen records',
    files: ['test/app/release-eligibility.test.ts', 'test/e2e/update/cooldown.test.ts'],
  },
  {
    kind: 'hostile input',
    name: 'add: pasted text and sidecars',
    covers:
      'pasted repository text, electron-builder metadata built to expand or mislead, asset names with pattern syntax, wrong checksum sidecars',
    files: ['test/app/add/add-hostile.test.ts', 'test/e2e/update/checksum-sidecars.test.ts'],
  },
  {
    kind: 'fault',
    name: 'no network and untrusted certificates',
    covers:
      'the CLI in a network namespace with no interface (200 apps offline, exit 75, state untouched); a route but an unreachable resolver (EAI_AGAIN for every host: offline too); an HTTPS forge with an unknown CA, also inside a proxy tunnel and from the standalone executable; CA files oversized or empty',
    files: [
      'test/e2e/network/offline.test.ts',
      'test/e2e/network/no-dns.test.ts',
      'test/app/offline.test.ts',
      'test/e2e/network/https-trust.test.ts',
      'test/http/ca-store.test.ts',
      'test/entry/standalone-network.test.ts',
    ],
  },
  {
    kind: 'hostile input',
    name: 'answers that lie',
    covers: 'an HTML page (captive portal, proxy login) where JSON was expected; a forge asset of size 0',
    files: ['test/http/html-answer.test.ts', 'test/e2e/network/size-zero.test.ts'],
  },
  {
    kind: 'hostile input',
    name: 'the lock file',
    covers:
      'a lock file oversized, not a regular file, with unknown keys, bad digests, credential URLs, path-like app names, duplicate keys or alias bombs (positioned, no request sent); a replaced asset under --locked (LOCK_MISMATCH, nothing changed); an installed file replaced by one of another size (the locked bytes put back)',
    files: ['test/config/lock-file.test.ts', 'test/e2e/lock/lock.test.ts'],
  },
  {
    kind: 'hostile input',
    name: 'lock bombs',
    covers:
      'YAML alias bombs as the lock file (`update --locked`), config.yml or a recipe: refused before expanding, the config error naming the file at 1:1 (exit 2 for the lock and config.yml), never INTERNAL',
    files: ['test/config/lock-bombs.test.ts'],
  },
];

interface SuiteFigures {
  tests: number;
  pass: number;
  fail: number;
  seconds: number;
}

function runSuite(files: string[], env: Record<string, string> = {}): SuiteFigures {
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=tap', '--test-timeout=120000', ...files],
    { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } },
  );
  const count = (label: string): number =>
    Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(r.stdout)?.[1] ?? 0);
  const figures = { tests: count('tests'), pass: count('pass'), fail: count('fail'), seconds: 0 };
  if (r.status !== 0 && figures.fail === 0) figures.fail = 1;
  figures.seconds = (Date.now() - started) / 1000;
  return figures;
}

async function runSoak(): Promise<{ result: SoakResult; seconds: number }> {
  const started = Date.now();
  const json = join(tmpdir(), `ak-soak-${process.pid}.json`);
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'bench/soak.ts', '--trials', String(trials), '--seed', String(seed), '--json', json],
    { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (r.error) throw r.error;
  return {
    result: JSON.parse(await readFile(json, 'utf8')) as SoakResult,
    seconds: (Date.now() - started) / 1000,
  };
}

const build = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(1);

const rows: string[] = [];
let failed = false;
for (const s of SUITES) {
  process.stderr.write(`${s.name}…\n`);
  const f = runSuite(s.files, s.env);
  if (f.fail > 0) failed = true;
  rows.push(
    `| ${s.kind} | ${s.name} | ${s.covers} | ${s.files.map((x) => `\`${x}\``).join(', ')} | ${f.tests} | ${f.fail} |`,
  );
}
process.stderr.write(`kill -9 soak, ${trials} trials…\n`);
const soak = await runSoak();
const s = soak.result;
const bad = s.total.corruptInstalls + s.total.lostPrevious + s.total.notConverged;
if (bad > 0) failed = true;
const soakRow = (name: string, f: SoakFigures): string =>
  `| ${name} | ${f.trials} | ${f.killed} | ${f.corruptInstalls} | ${f.lostPrevious} | ${f.notConverged} |`;
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
  cwd: REPO_ROOT,
  encoding: 'utf8',
}).stdout.trim();

const doc = `# Reliability figures

Generated by \`npm run reliability\` (\`scripts/reliability.ts\`) from a run of the suites below and
of the \`kill -9\` soak; do not edit by hand. Last run: commit ${commit || 'unknown'}, Node
${process.version}, ${new Date().toISOString().slice(0, 10)}.

## Fault and hostile-input suites

Each test case is one attempt: a fault injected into a real run (over loopback against the forge
simulator, real files, the built CLI where the suite is end to end) or one hostile input, with the
expected refusal and nothing installed lost. A failure is a test case that did not hold.

| kind | suite | what it throws at us | files | attempts | failures |
| --- | --- | --- | --- | ---: | ---: |
${rows.join('\n')}

## \`kill -9\` soak

\`bench/soak.ts\`: four apps (two with desktop entries, one with \`{version}\` in its file name, one
slow download) are installed twice, so each has a kept previous version. Each trial publishes a new
version of all four, starts \`update\` with the built CLI, and kills it with SIGKILL when the trial's
phase is reached: \`download\` (some time into a throttled download), \`verify\` (right after a
download's temp file appears, small files), \`rename\` (the install's intent is written or a final
name appears), \`desktop\` (a desktop entry is written), \`state\` (the state file is being
replaced). Then a rerun, and one more run that must have nothing to do.

- **corrupt installs**: files under a final name (installed or kept) whose bytes are no published
  version, after the kill or after the rerun;
- **lost previous versions**: after the rerun, an app whose kept previous version is not the one it
  ran before the trial, intact (SHA-256 as recorded), or that does not run the latest version;
- **not converged**: the rerun failed, or the run after it still had work to do, or temp files,
  pending intents or stray files were left, or a desktop entry does not launch the installed file.

${trials} trials, seed ${seed}, ${soak.seconds.toFixed(0)} s:

| phase | trials | killed | corrupt installs | lost previous versions | not converged |
| --- | ---: | ---: | ---: | ---: | ---: |
${SOAK_PHASES.map((p) => soakRow(p, s.byPhase[p])).join('\n')}
${soakRow('**all**', s.total)}
${s.problems.length > 0 ? `\nProblems:\n\n${s.problems.map((p) => `- ${p}`).join('\n')}\n` : ''}
A trial counted as not killed finished before its trigger fired (nothing to interrupt).
The bounded version (8 trials) runs in the test suite: \`test/e2e/update/soak.test.ts\`.
`;

await writeFile(out, doc);
await rm(join(tmpdir(), `ak-soak-${process.pid}.json`), { force: true });
spawnSync(
  process.execPath,
  [join(REPO_ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--write', out],
  {
    stdio: 'ignore',
  },
);
process.stderr.write(`wrote ${out}\n`);
process.exitCode = failed ? 1 : 0;
