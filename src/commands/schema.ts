import { UsageError } from '../core/errors.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';

/** `schema [config|recipe]`: the JSON Schema, for editors and CI checks. */
async function schemaCommand(kind: string | undefined): Promise<CommandResult> {
  const which = kind ?? 'config';
  if (which !== 'config' && which !== 'recipe') {
    throw new UsageError('USAGE', `unknown schema "${which}"`, { hint: 'use "config" or "recipe"' });
  }
  const { jsonSchema } = await import('../config/schema.js');
  const schema = jsonSchema(which);
  // The schema is itself the JSON document, with or without --json.
  return { exitCode: 0, json: schema, human: JSON.stringify(schema, null, 2) };
}

/** `schema`: the JSON Schema of config.yml or of a recipe. */
export const schema = defineCommand<[string], Record<string, never>>({
  name: 'schema',
  summary: 'print the JSON Schema of config.yml or of a recipe',
  arguments: [{ name: '[kind]', description: 'config or recipe', default: 'config' }],
  flags: [],
  examples: [
    ['appimage-keeper schema config > config.schema.json', 'JSON Schema of config.yml'],
    ['appimage-keeper schema recipe', 'JSON Schema of a recipe'],
  ],
  handler: ({ args: [kind] }) => schemaCommand(kind),
});
