import * as z from 'zod';
import { fieldKit } from './field-kit.js';
import { GLOBAL_FIELDS } from './fields.js';
import { RECIPE_FIELDS, STRATEGY_DOCS } from './recipe-fields.js';

// Any optional field may be left empty (`hub_release_api_url:`), meaning "not set": the default (or,
// in a recipe, the config.yml value) applies. The starter config lists every field this way.
function unsettable(schema: z.ZodType): z.ZodType {
  return schema
    .nullable()
    .optional()
    .transform((v) => v ?? undefined);
}

function globalShape(recipe = false): Record<string, z.ZodType> {
  return Object.fromEntries(
    GLOBAL_FIELDS.filter((f) => !(recipe && f.globalOnly)).map((f) => [
      f.key,
      unsettable(f.schema(fieldKit)),
    ]),
  );
}

/** Schema of config.yml: every global field, all optional. */
export const configSchema = z.strictObject(globalShape());

/** Schema of secrets.yml. */
export const secretsSchema = z.strictObject({
  hub_token: z.string().trim().min(1, 'must not be empty').optional(),
});

/** Schema of a recipe: its own fields plus every global field as an override. */
export const recipeSchema = z.strictObject({
  ...globalShape(true),
  ...Object.fromEntries(
    RECIPE_FIELDS.map((f) => [f.key, f.required ? f.schema(fieldKit) : unsettable(f.schema(fieldKit))]),
  ),
});

/** JSON Schema of config.yml or a recipe, for editors (yaml-language-server) and `schema`. */
export function jsonSchema(kind: 'config' | 'recipe'): Record<string, unknown> {
  const base = kind === 'config' ? configSchema : recipeSchema;
  const schema = z.toJSONSchema(base, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  // Editors should accept the branded aliases too; list them as deprecated-style alternatives.
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  for (const f of GLOBAL_FIELDS) {
    for (const a of f.aliases) props[a] = { ...(props[f.key] as object), description: `Alias of ${f.key}.` };
    const p = props[f.key] as Record<string, unknown> | undefined;
    if (p) {
      p.description = f.description;
      if (f.default !== undefined) p.default = f.default;
    }
  }
  if (kind === 'recipe') {
    for (const f of RECIPE_FIELDS) {
      const p = props[f.key] as Record<string, unknown> | undefined;
      if (p) p.description = f.description;
    }
    describeStrategies(props.strategy);
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: kind === 'config' ? 'appimage-keeper config.yml' : 'appimage-keeper recipe',
    ...schema,
  };
}

type SchemaNode = { properties?: Record<string, Record<string, unknown>> } & Record<string, unknown>;

/** Gives each field of each strategy branch its description, so editors' hovers are not empty. */
function describeStrategies(strategy: unknown): void {
  const branches = (strategy as { oneOf?: SchemaNode[] } | undefined)?.oneOf ?? [];
  for (const branch of branches) {
    const props = branch.properties ?? {};
    const docs = STRATEGY_DOCS[String(props.strategy?.const)] ?? {};
    for (const [key, prop] of Object.entries(props)) {
      const text = docs[key];
      if (text) prop.description = text;
    }
  }
}
