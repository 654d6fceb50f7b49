/**
 * Peak memory of the built CLI on every catalogue path (issue 27 §4): each hostile or merely large
 * catalogue document, just under the 32 MiB cap, is served by the sim, then `search` runs twice in
 * a child process: once fetching and parsing it (no cache yet), once reading the cached copy back.
 * The peak resident set size of each child is Node's own (`max-rss-preload.mjs`). Used by
 * bench/hostile-memory.ts (the table) and test/sources/catalogues/memory.test.ts (the limit).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sim } from '../../sim/index.js';
import { MAX_CATALOGUE_ENTRIES } from '../../src/sources/catalogues/types.js';
import { CLI_PATH, REPO_ROOT, refuseInFastRun } from './run-cli.js';
import { makeTmpHome } from './tmp-home.js';

/** The most a catalogue path may take, in MB of peak RSS. */
export const CATALOGUE_MEMORY_LIMIT_MB = 150;
/** A document just under the 32 MiB a catalogue answer may be. */
export const NEAR_CAP_BYTES = 32 * 1024 * 1024 - 4096;

/** One catalogue document to serve, and a term `search` finds in it. */
interface MemoryCase {
  name: string;
  /** Path on the sim; its ending gives the format (docs/catalogues.md). */
  path: string;
  body: Buffer;
  term: string;
}

/** One measured run. */
export interface MemoryRow {
  case: string;
  run: 'fetch + parse' | 'from the cache';
  /** Bytes of the document served. */
  bytes: number;
  /** Peak RSS of the CLI process, MB (10^6 bytes). */
  rssMb: number;
  /** The search's exit code (0 = hits) and its hit count. */
  code: number | null;
  hits: number;
}

const words = ['note', 'editor', 'player', 'browser', 'studio', 'viewer', 'chat', 'code', 'paint', 'music'];
const word = (i: number): string => words[i % words.length] ?? 'app';
// One character past Latin-1 makes V8 hold the whole decoded text at two bytes a character.
const DASH = '—';

// One AppImageHub item (with the fields the real feed has), its second paragraph `more`.
function hubItem(i: number, more: string): string {
  return `${i === 0 ? '' : ','}${JSON.stringify({
    name: `${word(i)}-${i}`,
    description: `<p>A ${word(i + 3)} for ${word(i + 7)} people ${DASH} entry ${i}.</p><p>${more}</p>`,
    categories: ['Utility'],
    authors: [{ name: `${word(i)}-${i}`, url: `https://example.org/${i}` }],
    license: 'MIT',
    links: [{ type: 'GitHub', url: `owner${i}/${word(i)}-${i}` }],
    icons: [`${word(i)}/icons/128x128/${i}.png`],
    screenshots: [`${word(i)}/screenshot.png`],
  })}`;
}

// Lines of `line(i)` until `bytes` is reached (the last one cut), after `head`.
function fill(bytes: number, head: string, line: (i: number) => string, tail = ''): Buffer {
  const parts: string[] = [head];
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail);
  for (let i = 0; ; i++) {
    const l = line(i);
    const n = Buffer.byteLength(l);
    if (size + n > bytes) break;
    parts.push(l);
    size += n;
  }
  parts.push(tail);
  return Buffer.from(parts.join(''));
}

/** The documents, each at most `bytes` long. */
export function memoryCases(bytes: number): MemoryCase[] {
  const amHead = 'This is the list of all the apps available in the database\n\n';
  const keeperApp = JSON.stringify({
    name: 'editor',
    description: `An editor ${DASH} ours`,
    repository: 'org/editor',
  });
  const bigText = (rest: number): string => 'a'.repeat(Math.max(0, rest));
  const keeperHead = `{"apps":[${keeperApp},{"name":"huge","description":"big","recipe":{"strategy":{"strategy":"direct","url":"https://dl.example.org/`;
  const keeperTail = '"}}}]}';
  // Items as long as it takes to fill the feed with a few less than the most a catalogue may hold.
  const itemBytes = Math.floor(bytes / (MAX_CATALOGUE_ENTRIES - 500));
  const more = 'y'.repeat(Math.max(0, itemBytes - Buffer.byteLength(hubItem(99_999, ''))));
  // AM lines as long, their descriptions past the 400 characters kept.
  const pad = 'x'.repeat(Math.max(330, itemBytes - 60));
  return [
    {
      name: 'AM list of long entries',
      path: '/cat/long/programs/x86_64-apps',
      body: fill(
        bytes,
        amHead,
        (i) => `◆ ${word(i)}${i} : The ${word(i + 5)} app ${DASH} number ${i} ${pad}\n`,
      ),
      term: 'editor',
    },
    {
      name: 'AM list of short lines (most left out)',
      path: '/cat/short/programs/x86_64-apps',
      body: fill(bytes, amHead, (i) => `◆ ${word(i)}${i} : a\n`),
      term: 'editor',
    },
    {
      name: 'AM list with one huge line',
      path: '/cat/line/programs/x86_64-apps',
      body: (() => {
        const head = `${amHead}◆ editor : An editor\n◆ huge : `;
        return Buffer.from(`${head}${'editor '.repeat(Math.floor((bytes - head.length - 8) / 7))}\n`);
      })(),
      term: 'editor',
    },
    {
      name: 'keeper index with one huge string',
      path: '/cat/keeper/index.json',
      body: Buffer.from(
        `${keeperHead}${bigText(bytes - Buffer.byteLength(keeperHead) - keeperTail.length)}${keeperTail}`,
      ),
      term: 'editor',
    },
    {
      name: 'AppImageHub feed of many items',
      path: '/cat/hub/feed.json',
      body: fill(
        bytes,
        '{"version":1,"home_page_url":"https://appimage.github.io","items":[',
        (i) => hubItem(i, more),
        ']}',
      ),
      term: 'editor',
    },
  ];
}

// `search --json TERM` in `env`: its exit code, hit count and the peak RSS its process reached.
async function measure(
  env: NodeJS.ProcessEnv,
  term: string,
  rssFile: string,
): Promise<Omit<MemoryRow, 'case' | 'run' | 'bytes'>> {
  const preload = join(REPO_ROOT, 'test', 'helpers', 'max-rss-preload.mjs');
  const child = spawn(process.execPath, ['--import', preload, CLI_PATH, '--json', 'search', term], {
    env: { ...env, KEEPER_MAX_RSS_FILE: rssFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  const [code] = (await once(child, 'close')) as [number | null];
  let hits: number;
  try {
    hits = (JSON.parse(Buffer.concat(out).toString()) as { hits: unknown[] }).hits.length;
  } catch {
    throw new Error(`search exited ${code} without JSON: ${Buffer.concat(err).toString().slice(-2000)}`);
  }
  const report = await readFile(rssFile, 'utf8');
  const kib = Number(report);
  if (!Number.isFinite(kib) || kib <= 0) throw new Error(`no peak RSS from the search: ${report}`);
  return { rssMb: (kib * 1024) / 1e6, code, hits };
}

/** Serves each case of `bytes` on `sim` and measures both runs of `search` over it, one case at a time. */
export async function measureCatalogueMemory(
  sim: Sim,
  bytes: number,
  log: (line: string) => void = () => undefined,
): Promise<MemoryRow[]> {
  refuseInFastRun('measureCatalogueMemory');
  const rows: MemoryRow[] = [];
  for (const c of memoryCases(bytes)) {
    const home = await makeTmpHome();
    try {
      const url = sim.putAsset(c.path, c.body);
      await home.writeConfig(`storage_dir: ${join(home.root, 'storage')}\ncatalogues:\n  - ${url}\n`);
      const rssFile = join(home.root, 'max-rss');
      for (const run of ['fetch + parse', 'from the cache'] as const) {
        log(`${c.name}: ${run}…`);
        rows.push({ case: c.name, run, bytes: c.body.length, ...(await measure(home.env, c.term, rssFile)) });
      }
    } finally {
      sim.removeAsset(c.path);
      await home.cleanup();
    }
  }
  return rows;
}
