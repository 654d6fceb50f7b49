import { jsonSchema } from '../config/schema.js';
import { UsageError } from '../core/errors.js';
import type { CommandResult } from '../cli/result.js';

/** `schema [config|recipe]`: the JSON Schema, for editors and CI checks. */
export function schemaCommand(kind: string | undefined): CommandResult {
  const which = kind ?? 'config';
  if (which !== 'config' && which !== 'recipe') {
    throw new UsageError('USAGE', `unknown schema "${which}"`, { hint: 'use "config" or "recipe"' });
  }
  const schema = jsonSchema(which);
  // The schema is itself the JSON document, with or without --json.
  return { exitCode: 0, json: schema, human: JSON.stringify(schema, null, 2) };
}
