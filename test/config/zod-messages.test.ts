import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { z } from 'zod';
import { GLOBAL_FIELDS } from '../../src/config/fields.js';
import {
  directStrategySchema,
  fieldKit,
  forgeStrategySchema,
  scriptStrategySchema,
} from '../../src/config/field-kit.js';
import { RECIPE_FIELDS } from '../../src/config/recipe-fields.js';
import { readableZodMessage } from '../../src/config/zod-messages.js';

// Values of every YAML type, in and out of every range the field tables use.
const WRONG_VALUES: unknown[] = [
  'yes',
  '',
  'not a url',
  99_999,
  0,
  -1,
  1.5,
  true,
  null,
  [],
  [1, 2],
  ['https://a.test/', 3],
  { a: 1 },
  { 'bad name': 'x', ok: [1] },
];

// zod's own phrasing; none of it may reach a user.
const RAW =
  /Invalid input|Invalid option|expected \w+|received \w+|Too (small|big)|Invalid (string|key|element)/;

function schemasUnderTest(): [string, z.ZodType][] {
  const out: [string, z.ZodType][] = [];
  for (const f of GLOBAL_FIELDS) out.push([f.key, f.schema(fieldKit)]);
  for (const f of RECIPE_FIELDS) out.push([f.key, f.schema(fieldKit)]);
  for (const [kind, schema] of [
    ['forge', forgeStrategySchema],
    ['direct', directStrategySchema],
    ['script', scriptStrategySchema],
  ] as const)
    for (const [key, field] of Object.entries<z.ZodType>(schema.shape))
      out.push([`strategy.${key} (${kind})`, field]);
  return out;
}

function messages(error: z.ZodError): string[] {
  const all: string[] = [];
  const walk = (issues: readonly z.core.$ZodIssue[]): void => {
    for (const i of issues) all.push(readableZodMessage(i));
  };
  walk(error.issues);
  return all;
}

void describe('config messages for wrong values', () => {
  void test('no field of any type in the field tables shows zod’s raw text', () => {
    let checked = 0;
    for (const [key, schema] of schemasUnderTest()) {
      for (const value of WRONG_VALUES) {
        const r = schema.safeParse(value);
        if (r.success) continue;
        for (const m of messages(r.error)) {
          checked++;
          assert.doesNotMatch(m, RAW, `${key} = ${JSON.stringify(value)}: "${m}"`);
          assert.ok(m.length > 0);
        }
      }
    }
    assert.ok(checked > 100, `only ${checked} messages checked`);
  });

  void test('each kind of mistake says what is expected, in the words of a config file', () => {
    const say = (key: string, value: unknown): string => {
      const spec = [...GLOBAL_FIELDS, ...RECIPE_FIELDS].find((f) => f.key === key);
      const r = spec?.schema(fieldKit).safeParse(value);
      assert.ok(r && !r.success, key);
      return readableZodMessage(r.error.issues[0]!);
    };
    assert.equal(say('create_symlinks', 'yes'), 'must be true or false, not text');
    assert.equal(say('storage_dir', ['a']), 'must be text, not a list');
    assert.equal(say('download_connections', 'ten'), 'must be a number, not text');
    assert.equal(say('download_connections', 99), 'must be at most 16');
    assert.equal(say('download_connections', 0), 'must be at least 1');
    assert.equal(say('download_connections', 1.5), 'must be a whole number');
    assert.equal(say('desktop_exec_args', 'x'), 'must be a list, not text');
    assert.equal(say('desktop_env', ['x']), 'must be a mapping (key: value), not a list');
    assert.match(say('zsync', 3), /^must be true or false, or "auto", or text/);
  });
});
