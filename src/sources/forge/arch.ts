/**
 * Machine architectures as AppImage release names spell them, and the mapping from Node's
 * `process.arch` to the names scripts and users expect.
 */

/** Canonical AppImage architecture names. */
export type AppImageArch = 'x86_64' | 'aarch64' | 'i686' | 'armhf';

const FROM_NODE: Record<string, AppImageArch> = {
  x64: 'x86_64',
  arm64: 'aarch64',
  ia32: 'i686',
  arm: 'armhf',
};

// Tokens are matched between non-alphanumeric boundaries so `x86_64` is never read as `x86`.
// Besides the canonical spellings, the words real release names use (bench/arch-corpus.ts counts
// them on 300 real names): `linux64`, `lin64`, `64bit`, `ubu64` and their 32-bit counterparts.
const TOKENS: Record<AppImageArch, string[]> = {
  x86_64: ['x86_64', 'x86-64', 'amd64', 'x64', 'linux64', 'lin64', '64bit', '64-bit', 'linuxx86_64', 'ubu64'],
  aarch64: ['aarch64', 'arm64', 'armv8'],
  i686: ['i386', 'i486', 'i586', 'i686', 'ia32', 'x86_32', 'linux32', 'lin32', '32bit', '32-bit', 'ubu32'],
  armhf: ['armhf', 'armv7l', 'armv7', 'armv7hl', 'arm32', 'armel'],
};

const PATTERNS = Object.entries(TOKENS).map(([arch, tokens]) => ({
  arch: arch as AppImageArch,
  re: new RegExp(`(?<![a-z0-9])(?:${tokens.map(escapeRegExp).join('|')})(?![a-z0-9])`, 'i'),
}));

/** Maps Node's `process.arch` (x64, arm64, ...) to the AppImage name (x86_64, aarch64, ...). */
export function appImageArch(nodeArch: string): string {
  return FROM_NODE[nodeArch] ?? nodeArch;
}

/** The architectures a file name mentions (usually zero or one). */
export function archesInName(name: string): AppImageArch[] {
  return PATTERNS.filter((p) => p.re.test(name)).map((p) => p.arch);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `name` with every token of an architecture other than `to` replaced by `to`'s canonical name,
 * and the architectures replaced (empty when the name already names only `to`, or none).
 */
export function retargetArch(name: string, to: AppImageArch): { name: string; replaced: AppImageArch[] } {
  let out = name;
  const replaced: AppImageArch[] = [];
  for (const p of PATTERNS) {
    if (p.arch === to) continue;
    const global = new RegExp(p.re.source, 'gi');
    if (global.test(out)) {
      out = out.replace(global, to);
      replaced.push(p.arch);
    }
  }
  return { name: out, replaced };
}

/** Where each architecture word stands in `name`: its offsets and the architecture it names. */
export function archTokens(name: string): { start: number; end: number; arch: AppImageArch }[] {
  const found: { start: number; end: number; arch: AppImageArch }[] = [];
  for (const p of PATTERNS) {
    for (const m of name.matchAll(new RegExp(p.re.source, 'gi')))
      found.push({ start: m.index, end: m.index + m[0].length, arch: p.arch });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Node's `process.arch` for an AppImage architecture (the inverse of appImageArch). */
export function nodeArchOf(arch: AppImageArch): string {
  return Object.entries(FROM_NODE).find(([, a]) => a === arch)?.[0] ?? arch;
}
