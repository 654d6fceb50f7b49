import type * as z from 'zod';

type Issue = z.core.$ZodIssue;

// What each zod type is called in a config file's terms.
const TYPE_WORDS: Record<string, string> = {
  boolean: 'true or false',
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  array: 'a list',
  object: 'a mapping (key: value)',
  record: 'a mapping (key: value)',
  null: 'empty',
};

function typeWord(t: string): string {
  return TYPE_WORDS[t] ?? t;
}

function received(issue: Issue): string | undefined {
  // zod v4 does not keep the input by default; its message ends with the received type.
  const m = /received (\w+)/.exec(issue.message);
  return m?.[1] ? typeWord(m[1]) : undefined;
}

function quoteValues(values: readonly unknown[]): string {
  const words = values.map((v) => JSON.stringify(v));
  return words.length <= 2 ? words.join(' or ') : `one of ${words.join(', ')}`;
}

function bound(issue: Issue & { code: 'too_small' | 'too_big' }): string {
  const limit = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  const inclusive = issue.inclusive !== false;
  if (issue.origin === 'string')
    return issue.code === 'too_small'
      ? limit <= 1
        ? 'must not be empty'
        : `must be at least ${limit} characters`
      : `must be at most ${limit} characters`;
  if (issue.origin === 'array')
    return issue.code === 'too_small' ? `must list at least ${limit}` : `must list at most ${limit}`;
  if (issue.code === 'too_small')
    return inclusive ? `must be at least ${limit}` : `must be more than ${limit}`;
  return inclusive ? `must be at most ${limit}` : `must be less than ${limit}`;
}

/**
 * A zod issue in the words of a config file (`must be true or false, not text`), never zod's own
 * text (`Invalid input: expected boolean, received string`). Messages we wrote ourselves (refinements,
 * explicit `error`s) pass unchanged.
 */
export function readableZodMessage(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type': {
      const got = received(issue);
      const want = typeWord(issue.expected);
      return got && got !== want ? `must be ${want}, not ${got}` : `must be ${want}`;
    }
    case 'invalid_value':
      return issue.message.startsWith('Invalid') ? `must be ${quoteValues(issue.values)}` : issue.message;
    case 'too_small':
    case 'too_big':
      return issue.message.startsWith('Too') ? bound(issue) : issue.message;
    case 'invalid_format':
      return issue.message.startsWith('Invalid') ? `must be a valid ${issue.format}` : issue.message;
    case 'invalid_key':
    case 'invalid_element': {
      const nested = issue.issues[0];
      return nested ? readableZodMessage(nested) : 'has an invalid entry';
    }
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_union': {
      if (!issue.message.startsWith('Invalid')) return issue.message;
      // Each branch's expectation, e.g. zsync: true or false, "auto", or an http(s) URL.
      const wants = issue.errors
        .map((branch) => branch[0])
        .filter((i): i is Issue => i !== undefined)
        .map((i) =>
          readableZodMessage(i)
            .replace(/^must be /, '')
            .replace(/, not .*$/, ''),
        );
      const unique = [...new Set(wants)];
      return unique.length ? `must be ${unique.join(', or ')}` : 'has the wrong type';
    }
    default:
      return issue.message;
  }
}
