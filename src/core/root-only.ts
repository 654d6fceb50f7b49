/**
 * The system layout's rule for what it manages and what root acts on: owned by root, writable by root
 * only (anyone else who can write there can replace a program every account runs, or a recipe or a
 * resolver root executes), and what users run readable by them. A link is judged by what it leads to,
 * and a file by every folder above it up to `/` as well, as sudo and sshd's StrictModes judge theirs.
 * One rule for `doctor --system`, the start of a `--system` run, recipe loading and the script resolver.
 */
import { lstatSync, readlinkSync, type Stats } from 'node:fs';
import { lstat, opendir, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { UsageError } from './errors.js';
import { shellQuote } from './shell-quote.js';

// A managed tree is ours, but a hostile one must not make doctor walk forever.
export const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 16;
// The kernel's own bound (ELOOP): a longer chain of links leads nowhere anything can be read.
const MAX_LINKS = 40;

/** One entry that breaks the system layout's rule, and the command that fixes it. */
export interface Finding {
  path: string;
  problem: string;
  fix: string;
}

// Owned by root and no group/other write bit (a link's own mode means nothing); undefined when so.
function notRootsAlone(path: string, st: Stats): Finding | undefined {
  const link = st.isSymbolicLink();
  const mode = st.mode & 0o7777;
  const q = shellQuote(path);
  const problems: string[] = [];
  const fixes: string[] = [];
  if (st.uid !== 0) {
    problems.push(`owned by uid ${st.uid}, not root`);
    fixes.push(`chown ${link ? '-h ' : ''}root:root ${q}`);
  }
  if (!link && mode & 0o022) {
    problems.push(`writable by ${mode & 0o002 ? 'everyone' : 'its group'}`);
    fixes.push(`chmod go-w ${q}`);
  }
  if (problems.length === 0) return undefined;
  return {
    path,
    problem: `${problems.join(', and ')}${link ? '' : ` (mode ${mode.toString(8)})`}`,
    fix: fixes.join(' && '),
  };
}

/** What one run has already read of the entries it judged, so shared folders are read once. */
export type EntryMemo = Map<string, { st: Stats; target?: string } | null>;

// lstat (and readlink for a link) of `path`, through `memo`; null when it cannot be read.
function entryAt(path: string, memo: EntryMemo): { st: Stats; target?: string } | null {
  let entry = memo.get(path);
  if (entry !== undefined) return entry;
  try {
    const st = lstatSync(path);
    entry = st.isSymbolicLink() ? { st, target: readlinkSync(path) } : { st };
  } catch {
    entry = null;
  }
  memo.set(path, entry);
  return entry;
}

/**
 * Every entry that lets someone other than root change what `path` really is: each folder the path
 * passes through from `/`, each link's target (and the folders above that), and the file itself;
 * none when all are root's alone. What does not exist, or loops, ends the walk (nothing to judge).
 * Synchronous: a few lstat calls of microseconds each, where the thread pool's round trips cost more;
 * pass one `memo` for the run to read the folders many paths share once.
 */
export function rootOnlyFindings(path: string, memo: EntryMemo = new Map()): Finding[] {
  const out: Finding[] = [];
  const judged = new Set<string>();
  let links = 0;
  const judge = (p: string, st: Stats): void => {
    if (judged.has(p)) return;
    judged.add(p);
    const f = notRootsAlone(p, st);
    if (f) out.push(f);
  };
  // Walks `rest` from the real folder `from` as the kernel does; the real path reached, or undefined.
  const walk = (from: string, rest: string): string | undefined => {
    let cur = rest.startsWith('/') ? '/' : from;
    for (const part of rest.split('/')) {
      if (part === '' || part === '.') continue;
      // `cur` is real, so its parent is the folder `..` names (and was judged on the way down).
      if (part === '..') {
        cur = dirname(cur);
        continue;
      }
      const next = join(cur, part);
      const entry = entryAt(next, memo);
      if (!entry) return undefined;
      if (entry.target !== undefined) {
        // Nothing opens through a loop (ELOOP); the folders it passed are already judged.
        if (++links > MAX_LINKS) return undefined;
        const target = walk(cur, entry.target);
        if (target === undefined) return undefined;
        cur = target;
        continue;
      }
      judge(next, entry.st);
      cur = next;
    }
    return cur;
  };
  const root = entryAt('/', memo);
  if (root) judge('/', root.st);
  walk('/', isAbsolute(path) ? path : resolve(path));
  return out;
}

/**
 * Adds to `out` what breaks the rule at `path` (a link: its owner, then what it leads to, judged by
 * rootOnlyFindings); a shared entry must also be readable by all. Says what the path leads to.
 */
export async function inspectEntry(
  path: string,
  shared: boolean,
  out: Finding[],
): Promise<'dir' | 'other' | 'missing'> {
  const st = await lstat(path).catch(() => undefined);
  if (!st) return 'missing';
  const own = notRootsAlone(path, st);
  if (own) out.push(own);
  if (st.isSymbolicLink()) {
    out.push(...rootOnlyFindings(path));
    return (await stat(path).catch(() => undefined))?.isDirectory() ? 'dir' : 'other';
  }
  const mode = st.mode & 0o7777;
  const readAll = st.isDirectory() ? 0o005 : 0o004;
  if (shared && (mode & readAll) !== readAll) {
    out.push({
      path,
      problem: `not readable by other users (mode ${mode.toString(8)})`,
      fix: `chmod ${st.isDirectory() ? 'a+rx' : 'a+r'} ${shellQuote(path)}`,
    });
  }
  return st.isDirectory() ? 'dir' : 'other';
}

/**
 * Walks `dir` (bounded by `budget`), adding every entry that is not root's alone to `out`: the
 * folders above `dir` too, and what each link in it leads to (a linked folder is walked, once).
 */
export async function walkTree(
  dir: string,
  shared: boolean,
  out: Finding[],
  budget: { left: number } = { left: MAX_ENTRIES },
): Promise<void> {
  out.push(...rootOnlyFindings(dir));
  if ((await inspectEntry(dir, shared, out)) !== 'dir') return;
  const walked = new Set([await realpath(dir).catch(() => dir)]);
  const queue: { dir: string; depth: number }[] = [{ dir, depth: 0 }];
  for (let item = queue.shift(); item; item = queue.shift()) {
    const handle = await opendir(item.dir).catch(() => undefined);
    if (!handle) continue;
    for await (const entry of handle) {
      if (--budget.left < 0) break;
      const path = join(item.dir, entry.name);
      const kind = await inspectEntry(path, shared, out);
      if (kind !== 'dir' || item.depth + 1 >= MAX_DEPTH) continue;
      if (entry.isSymbolicLink()) {
        // A link may lead back up the tree: each real folder is walked once.
        const real = await realpath(path).catch(() => undefined);
        if (real === undefined || walked.has(real)) continue;
        walked.add(real);
      }
      queue.push({ dir: path, depth: item.depth + 1 });
    }
    if (budget.left < 0) return;
  }
}

/** True for a finding that lets someone other than root change the file (not a readability one). */
export function isUnsafe(f: Finding): boolean {
  return !f.problem.startsWith('not readable');
}

/** Findings without repeats (one folder above many files is reported once), in order. */
export function uniqueFindings(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.path}\0${f.problem}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * SYSTEM_CONFIG_UNSAFE (exit 2) for what someone other than root could change, naming the first
 * entry (its owner and mode) and the commands that fix them all.
 */
export function notRootOnlyError(findings: readonly Finding[]): UsageError {
  const unsafe = uniqueFindings(findings.filter(isUnsafe));
  const first = unsafe[0] ?? { path: '?', problem: 'not root-only', fix: '' };
  const more = unsafe.length > 1 ? ` (and ${unsafe.length - 1} more)` : '';
  return new UsageError(
    'SYSTEM_CONFIG_UNSAFE',
    `${first.path} is ${first.problem}${more}: someone other than root could change what root installs and runs`,
    {
      hint: `${[...new Set(unsafe.map((f) => f.fix))].slice(0, 10).join('; ')}; then run: appimage-keeper --system doctor`,
    },
  );
}
