/**
 * The layering rule in eslint.config.js: a temporary file in src/ with one import that runs back
 * up the layers fails lint, naming both folders; the same file importing downward passes. The
 * real config is used; only type-aware rules are switched off so one file lints in a second.
 */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { REPO_ROOT } from '../helpers/run-cli.js';

/** Lints `source` written at src/<relPath> (removed afterwards) and returns the layering messages. */
async function lintTemp(relPath: string, source: string): Promise<{ errors: number; messages: string[] }> {
  const file = join(REPO_ROOT, 'src', relPath);
  const createdDir = dirname(file);
  await mkdir(createdDir, { recursive: true });
  try {
    await writeFile(file, source, { flag: 'wx' });
    const eslint = new ESLint({ cwd: REPO_ROOT, overrideConfig: [tseslint.configs.disableTypeChecked] });
    const [result] = await eslint.lintFiles([file]);
    assert.ok(result, 'eslint returned no result');
    return { errors: result.errorCount, messages: result.messages.map((m) => `${m.ruleId}: ${m.message}`) };
  } finally {
    await rm(file, { force: true });
  }
}

const tag = `_tmp_layers_${process.pid}`;

void describe('lint: the layering of src/', () => {
  void it('refuses a static import from core up into app', async () => {
    const r = await lintTemp(`core/${tag}.ts`, "export { createRun } from '../app/run.js';\n");
    assert.equal(r.errors, 1, r.messages.join('\n'));
    assert.match(r.messages[0] ?? '', /^no-restricted-imports: .*src\/core may not import src\/app:/);
  });

  void it('refuses a type-only import and a dynamic import() from a nested folder', async () => {
    const source = [
      "import type { CommandResult } from '../../commands/result.js';",
      'export type R = CommandResult;',
      "export const load = () => import('../../cli/program.js');",
      '',
    ].join('\n');
    const r = await lintTemp(`transfer/download/${tag}.ts`, source);
    assert.deepEqual(
      r.messages.map((m) => m.replace(/:.*? may not import (src\/\w+).*/, ' $1')),
      ['no-restricted-imports src/commands', 'no-restricted-syntax src/cli'],
    );
  });

  void it('refuses a command importing the program that is built from the command list', async () => {
    // The command contract (command-spec, result, cli-model) sits in src/commands/ itself, so a
    // command never needs src/cli/ and no command file is excepted.
    const r = await lintTemp(`commands/${tag}.ts`, "export { buildProgram } from '../cli/program.js';\n");
    assert.equal(r.errors, 1, r.messages.join('\n'));
    assert.match(r.messages[0] ?? '', /^no-restricted-imports: .*src\/commands may not import src\/cli:/);
  });

  void it('accepts imports that run down the layers and between siblings', async () => {
    const source = [
      "import type { Paths } from '../core/paths.js';",
      "import { findProgram } from '../system/find-program.js';",
      'export const use = (p: Paths) => [p, findProgram];',
      '',
    ].join('\n');
    const r = await lintTemp(`app/${tag}.ts`, source);
    assert.deepEqual(r.messages, []);
  });

  void it('places the run context between sources and http: it may name the HTTP settings, never a use case', async () => {
    const eslint = new ESLint({ cwd: REPO_ROOT, overrideConfig: [tseslint.configs.disableTypeChecked] });
    const file = join(REPO_ROOT, 'src', 'context', 'context.ts');
    const config = (await eslint.calculateConfigForFile(file)) as { rules: Record<string, unknown> };
    const rule = JSON.stringify(config.rules['no-restricted-imports']);
    assert.match(rule, /src\/context may not import src\/app/);
    assert.match(rule, /src\/context may not import src\/sources/);
    assert.doesNotMatch(rule, /src\/context may not import src\/http/);
  });
});
