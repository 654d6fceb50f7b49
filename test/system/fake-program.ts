import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A canned answer of a fake program, chosen when its argv joined by spaces contains `match`. */
export interface FakeAnswer {
  match: string;
  stdout?: string;
  stderr?: string;
  code?: number;
}

/**
 * Writes an executable `<binDir>/<name>` that appends its argv (one JSON array per line) to
 * `<binDir>/<name>.log` and answers from `answers`; returns a reader for the recorded calls.
 */
export async function fakeProgram(
  binDir: string,
  name: string,
  answers: FakeAnswer[] = [],
): Promise<{ path: string; calls: () => Promise<string[][]> }> {
  await mkdir(binDir, { recursive: true });
  const path = join(binDir, name);
  const log = `${path}.log`;
  const script = `#!${process.execPath}
const fs = require('node:fs');
const args = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(args) + '\\n');
const answers = ${JSON.stringify(answers)};
const hit = answers.find((a) => args.join(' ').includes(a.match));
if (hit && hit.stdout) process.stdout.write(hit.stdout);
if (hit && hit.stderr) process.stderr.write(hit.stderr);
process.exitCode = hit && hit.code ? hit.code : 0;
`;
  await writeFile(path, script);
  await chmod(path, 0o755);
  return {
    path,
    calls: async () => {
      const text = await readFile(log, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as string[]);
    },
  };
}
