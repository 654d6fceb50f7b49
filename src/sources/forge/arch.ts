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
const TOKENS: Record<AppImageArch, string[]> = {
  x86_64: ['x86_64', 'x86-64', 'amd64', 'x64'],
  aarch64: ['aarch64', 'arm64', 'armv8'],
  i686: ['i386', 'i486', 'i586', 'i686', 'ia32', 'x86_32'],
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
