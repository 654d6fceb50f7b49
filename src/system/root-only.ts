/**
 * The system layout's rule for what it manages: owned by root, writable by root only (anyone else who
 * can write there can replace a program every account runs, or a recipe root executes), and what
 * users run readable by them. Shared by `doctor --system` and the start of a `--system` run.
 */
import { lstat, opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { shellQuote } from '../core/shell-quote.js';

// A managed tree is ours, but a hostile one must not make doctor walk forever.
export const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 16;

/** One entry that breaks the system layout's rule, and the command that fixes it. */
export interface Finding {
  path: string;
  problem: string;
  fix: string;
}

/** Owner root and no group/other write bit; a shared entry must also be readable by all. */
export async function inspectEntry(
  path: string,
  shared: boolean,
  out: Finding[],
): Promise<'dir' | 'other' | 'missing'> {
  const st = await lstat(path).catch(() => undefined);
  if (!st) return 'missing';
  const q = shellQuote(path);
  if (st.uid !== 0)
    out.push({ path, problem: `owned by uid ${st.uid}, not root`, fix: `chown -h root:root ${q}` });
  if (st.isSymbolicLink()) return 'other';
  const mode = st.mode & 0o7777;
  if (mode & 0o022) {
    const who = mode & 0o002 ? 'everyone' : 'its group';
    out.push({ path, problem: `writable by ${who} (mode ${mode.toString(8)})`, fix: `chmod go-w ${q}` });
  }
  const readAll = st.isDirectory() ? 0o005 : 0o004;
  if (shared && (mode & readAll) !== readAll) {
    out.push({
      path,
      problem: `not readable by other users (mode ${mode.toString(8)})`,
      fix: `chmod ${st.isDirectory() ? 'a+rx' : 'a+r'} ${q}`,
    });
  }
  return st.isDirectory() ? 'dir' : 'other';
}

/** Walks `dir` (bounded by `budget`), adding every entry that is not root's alone to `out`. */
export async function walkTree(
  dir: string,
  shared: boolean,
  out: Finding[],
  budget: { left: number } = { left: MAX_ENTRIES },
): Promise<void> {
  const queue: { dir: string; depth: number }[] = [{ dir, depth: 0 }];
  if ((await inspectEntry(dir, shared, out)) !== 'dir') return;
  for (let item = queue.shift(); item; item = queue.shift()) {
    const handle = await opendir(item.dir).catch(() => undefined);
    if (!handle) continue;
    for await (const entry of handle) {
      if (--budget.left < 0) break;
      const path = join(item.dir, entry.name);
      const kind = await inspectEntry(path, shared, out);
      if (kind === 'dir' && item.depth + 1 < MAX_DEPTH) queue.push({ dir: path, depth: item.depth + 1 });
    }
    if (budget.left < 0) return;
  }
}

/** True for a finding that lets someone other than root change the file (not a readability one). */
export function isUnsafe(f: Finding): boolean {
  return !f.problem.startsWith('not readable');
}
