/** The names of quick-run.ts's QUICK_COMMANDS (test/cli/quick-run.test.ts keeps the two equal). */
export const QUICK_COMMAND_NAMES: readonly string[] = ['list', 'validate'];

/**
 * Whether `argv` may be a quick command line. The launcher loads the quick bundle only then; the
 * bundle itself decides (quick-parse.ts) and hands anything else back to the full CLI.
 */
export function mayRunQuick(argv: readonly string[]): boolean {
  return argv.some((a) => QUICK_COMMAND_NAMES.includes(a));
}
