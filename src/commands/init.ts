import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Context } from '../context/context.js';
import { UsageError } from '../core/errors.js';
import { defineCommand } from './command-spec.js';
import type { CommandResult } from './result.js';
import { pathExists } from '../core/path-exists.js';
import { STRATEGIES, strategyAlias } from '../config/strategy-aliases.js';

/** Parses `init --strategy`: one of forge, direct, script; a forge or URL word gets the right name as a hint. */
export function parseStrategyFlag(value: string): string {
  if ((STRATEGIES as readonly string[]).includes(value)) return value;
  const alias = strategyAlias(value);
  throw new UsageError('USAGE', `unknown strategy "${value}"`, {
    hint: alias
      ? `use --strategy ${alias.use}: ${alias.why}`
      : `use --strategy ${STRATEGIES.join(', --strategy ')}`,
  });
}

/** Options of `init`. */
export interface InitOptions {
  global?: boolean;
  app?: string;
  strategy?: string;
  force?: boolean;
}

async function writeNew(path: string, text: string, force: boolean, mode = 0o644): Promise<void> {
  if (!force && (await pathExists(path))) {
    throw new UsageError('FILE_EXISTS', `${path} already exists`, { hint: 'pass --force to overwrite it' });
  }
  await writeFile(path, text, { mode });
  await chmod(path, mode);
}

async function writeSchemas(configDir: string): Promise<string[]> {
  const { jsonSchema } = await import('../config/schema.js');
  const { CONFIG_SCHEMA_FILE, RECIPE_SCHEMA_FILE } = await import('../config/templates.js');
  const files = [
    [join(configDir, CONFIG_SCHEMA_FILE), jsonSchema('config')],
    [join(configDir, RECIPE_SCHEMA_FILE), jsonSchema('recipe')],
  ] as const;
  // Schemas are generated, so they are always refreshed.
  for (const [file, schema] of files) await writeFile(file, `${JSON.stringify(schema, null, 2)}\n`);
  return files.map(([f]) => f);
}

/** `init --global` writes a starter config.yml; `init --app NAME --strategy S` scaffolds a recipe. */
async function initCommand(ctx: Context, opts: InitOptions): Promise<CommandResult> {
  const { RECIPE_SCHEMA_FILE, starterConfig, starterRecipe, starterResolverScript } =
    await import('../config/templates.js');
  const { isValidAppName } = await import('../config/workspace.js');
  const force = opts.force === true;
  const { paths } = ctx;
  if ((opts.global === true) === (opts.app !== undefined)) {
    throw new UsageError('USAGE', 'init needs exactly one of --global or --app NAME');
  }
  await mkdir(paths.appsDir, { recursive: true });
  const written: string[] = [];
  if (opts.global) {
    await writeNew(paths.configFile, starterConfig(paths.fieldDefaults), force);
    written.push(paths.configFile, ...(await writeSchemas(paths.configDir)));
  } else {
    const name = opts.app ?? '';
    const strategy = opts.strategy;
    if (!isValidAppName(name)) {
      throw new UsageError('USAGE', `"${name}" is not a valid app name`, {
        hint: 'use letters, digits, ".", "_", "+" or "-", starting with a letter or digit',
      });
    }
    if (strategy !== 'forge' && strategy !== 'direct' && strategy !== 'script') {
      throw new UsageError('USAGE', 'init --app needs --strategy forge, direct or script');
    }
    const dir = join(paths.appsDir, name);
    await mkdir(dir, { recursive: true });
    const schemas = await writeSchemas(paths.configDir);
    const recipeFile = join(dir, `${name}.yml`);
    const schemaRef = relative(dir, schemas[1] ?? join(paths.configDir, RECIPE_SCHEMA_FILE));
    await writeNew(recipeFile, starterRecipe(name, strategy, schemaRef), force);
    written.push(recipeFile);
    if (strategy === 'script') {
      const script = join(dir, 'resolver.sh');
      await writeNew(script, starterResolverScript(), force, 0o755);
      written.push(script);
    }
  }
  const lines = written.map((f) => `wrote ${f}`);
  if (opts.app !== undefined)
    lines.push(`next: replace the placeholders in it, then run: appimage-keeper validate ${opts.app}`);
  const human = lines.join('\n');
  return { exitCode: 0, json: { command: 'init', written }, human };
}

/** `init`: a starter config.yml or a recipe scaffold. */
export const init = defineCommand<[], InitOptions>({
  name: 'init',
  summary: 'write a starter config.yml (--global) or scaffold a recipe (--app NAME --strategy S)',
  arguments: [],
  flags: [
    { flags: '--global', description: 'write config.yml with every field and its default' },
    { flags: '--app <name>', description: 'scaffold apps/NAME/NAME.yml' },
    {
      flags: '--strategy <strategy>',
      description: 'strategy of the new recipe',
      choices: STRATEGIES,
      parse: parseStrategyFlag,
    },
    { flags: '--force', description: 'overwrite existing files' },
  ],
  examples: [
    ['appimage-keeper init --global', 'write config.yml with every field and its default'],
    ['appimage-keeper init --app obsidian --strategy forge', 'scaffold apps/obsidian/obsidian.yml'],
    ['appimage-keeper init --app tool --strategy script', 'scaffold a recipe and its resolver.sh'],
  ],
  handler: ({ ctx, flags }) => initCommand(ctx(), flags),
});
