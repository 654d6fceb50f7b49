/** The YAML text of a generated recipe, with the schema line `init --app` writes. */
import { stringify } from 'yaml';
import { RECIPE_SCHEMA_FILE } from '../../config/templates.js';
import type { RecipeDraft } from './plan.js';

/** Serialises a recipe draft; `comment` lines go above it (where it came from). */
export function recipeText(draft: RecipeDraft, comment: string[]): string {
  const values: Record<string, unknown> = { name: draft.name, strategy: draft.strategy };
  if (draft.zsync !== undefined) values.zsync = draft.zsync;
  const head = [
    `# yaml-language-server: $schema=../../${RECIPE_SCHEMA_FILE}`,
    ...comment.map((c) => `# ${c.replace(/[\r\n]+/g, ' ')}`),
  ];
  return `${head.join('\n')}\n${stringify(values, { lineWidth: 0 })}`;
}
