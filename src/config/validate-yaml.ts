import type * as z from 'zod';
import type { ConfigIssue } from '../core/errors.js';
import { didYouMean } from './did-you-mean.js';
import { readableZodMessage } from './zod-messages.js';
import { issueAt, type YamlFile } from './yaml-file.js';

/**
 * Renames branded aliases to their canonical key in `data` (a plain object from YAML).
 * Both spellings of one field in the same mapping is an error.
 */
export function normalizeAliases(
  y: YamlFile,
  data: Record<string, unknown>,
  aliases: ReadonlyMap<string, string>,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const [alias, canonical] of aliases) {
    if (!Object.hasOwn(data, alias)) continue;
    if (Object.hasOwn(data, canonical)) {
      issues.push(
        issueAt(y, [alias], `both "${canonical}" and its alias "${alias}" are set`, {
          key: true,
          hint: `keep only "${canonical}"`,
        }),
      );
      delete data[alias];
      continue;
    }
    data[canonical] = data[alias];
    delete data[alias];
  }
  return issues;
}

/** canonical key → the alias `data` spells it with, for every alias `data` uses (usually none). */
export function aliasSpellings(
  data: Record<string, unknown>,
  aliases: ReadonlyMap<string, string>,
): Map<string, string> {
  const spelled = new Map<string, string>();
  for (const key of Object.keys(data)) {
    const canonical = aliases.get(key);
    if (canonical !== undefined) spelled.set(canonical, key);
  }
  return spelled;
}

/** Context to position zod issues back in the YAML file and suggest keys. */
export interface ZodMapping {
  /** Original key spelling for a canonical key (so positions find aliased keys). */
  spelledAs: ReadonlyMap<string, string>;
  /** Known keys at a given object path, for "did you mean". */
  knownKeys: (path: readonly PropertyKey[]) => readonly string[];
  /** Where an unknown key at `path` belongs instead, when it is a known key of another level. */
  misplaced?: (path: readonly PropertyKey[], key: string) => string | undefined;
  /** A hint for a discriminator value no branch takes (`strategy: github` → forge). */
  discriminatorHint?: (path: readonly PropertyKey[]) => string | undefined;
}

/** Turns zod issues into positioned, readable config issues. */
export function zodIssues(y: YamlFile, error: z.ZodError, mapping: ZodMapping): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map((seg, i) =>
      i === 0 && typeof seg === 'string' ? (mapping.spelledAs.get(seg) ?? seg) : seg,
    );
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        // A right key at the wrong level says where it goes; a typo gets the nearest key of its level.
        const elsewhere = mapping.misplaced?.(issue.path, key);
        const suggestion = elsewhere ? undefined : didYouMean(key, mapping.knownKeys(issue.path));
        out.push(
          issueAt(y, [...path, key], `unknown key "${key}"`, {
            key: true,
            hint: elsewhere ?? (suggestion ? `did you mean "${suggestion}"?` : undefined),
          }),
        );
      }
      continue;
    }
    const label = path.map(String).join('.');
    if (issue.code === 'invalid_key') {
      // zod's own text is "Invalid key in record"; the nested issue says what is wrong with the key.
      const why = readableZodMessage(issue);
      out.push(issueAt(y, path, `${label}: ${why}`, { key: true }));
      continue;
    }
    let message = readableZodMessage(issue);
    if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
      message = `missing required field "${label}"`;
      out.push(issueAt(y, path.slice(0, -1), message));
      continue;
    }
    if (issue.code === 'invalid_union' && 'note' in issue && issue.note === 'No matching discriminator') {
      message = 'must be one of "forge", "direct", "script"';
      const hint = mapping.discriminatorHint?.(issue.path);
      out.push(issueAt(y, path, label ? `${label}: ${message}` : message, hint ? { hint } : {}));
      continue;
    }
    out.push(issueAt(y, path, label ? `${label}: ${message}` : message));
  }
  return out;
}
