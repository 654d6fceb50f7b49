// The command line shared by the generated references (docs/configuration.md, docs/cli.md): write the
// file, or with `--check` exit 1 when the committed one differs. `--file PATH` targets another file
// (the tests use it to prove the check can fail).
import { readFile, writeFile } from 'node:fs/promises';

/** Writes or checks `defaultTarget` (or `--file PATH`) against `render()`, per `args`. */
export async function writeOrCheckDoc(
  args: readonly string[],
  defaultTarget: string,
  render: () => Promise<string>,
  source: { from: string; script: string },
): Promise<void> {
  const fileAt = args.indexOf('--file');
  const target = fileAt >= 0 && args[fileAt + 1] ? args[fileAt + 1]! : defaultTarget;
  const text = await render();
  if (args.includes('--check')) {
    const current = await readFile(target, 'utf8').catch(() => '');
    if (current !== text) {
      process.stderr.write(`${target} is out of date with ${source.from}; run: npx tsx ${source.script}\n`);
      process.exitCode = 1;
    }
    return;
  }
  await writeFile(target, text);
  process.stdout.write(`wrote ${target}\n`);
}
