import { describe, expect, test } from 'vitest';
import { jsonSchemaValidator, outputSchemaValidator, passthroughObjectSchema } from './_json_input.ts';
import { PATTERN_BUDGET_MS, watchPatterns } from './_pattern_budget.ts';

function check(schema: Record<string, unknown>, input: unknown): string {
  const v = jsonSchemaValidator('T', schema);
  if ('error' in v) throw new Error(v.error);
  const r = v.validate(input);
  return r.result ? 'ok' : r.message;
}

describe('jsonSchemaValidator', () => {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      path: { type: 'string' },
      count: { type: 'integer', minimum: 1, maximum: 10 },
      mode: { enum: ['fast', 'slow'] },
      when: { type: 'string', format: 'date-time' },
      nested: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
    },
    required: ['path'],
    additionalProperties: false,
  };

  test('accepts a valid input, whatever draft the schema names', () => {
    expect(check(schema, { path: 'a', count: 3, mode: 'fast', when: '2025-01-01T00:00:00Z', nested: { id: 1 } })).toBe(
      'ok',
    );
  });

  test('words each problem as core does for built-in tools', () => {
    const message = check(schema, { count: 0, mode: 'medium', extra: 1, nested: {}, when: 'yesterday' });
    expect(message.split('\n')[0]).toBe('Invalid input for tool "T":');
    expect(message).toContain('- required parameter `path` is missing (expected string)');
    expect(message).toContain('- unexpected parameter `extra`; remove it');
    expect(message).toContain('- parameter `count`: must be >= 1, got number 0');
    expect(message).toContain('- parameter `mode` must be one of "fast", "slow", got string "medium"');
    expect(message).toContain('- required parameter `nested.id` is missing (expected number)');
    expect(message).toContain('- parameter `when`: must match format "date-time"');
    expect(message.endsWith('Fix these parameters and call the tool again.')).toBe(true);
    expect(check(schema, { path: 5 })).toContain('parameter `path` should be a string, got number 5');
  });

  test("reads a schema in the dialect its $schema names, and in 2020-12 (MCP's default) when it names none", () => {
    // What zod 4's toJSONSchema writes for a tuple: 2020-12, prefixItems with items: false.
    const tuple = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false };
    const declared = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { pair: tuple },
      required: ['pair'],
    };
    expect(check(declared, { pair: ['a', 1] })).toBe('ok');
    expect(check(declared, { pair: ['a', 1, 2] })).toContain('parameter `pair`: must NOT have more than 2 items');
    const undeclared = { type: 'object', properties: { pair: tuple } };
    expect(check(undeclared, { pair: ['a', 1] })).toBe('ok');
    expect(check(undeclared, { pair: [1, 'a'] })).toContain('parameter `pair.0` should be a string, got number 1');
    // draft-07's tuple form, from a server that names no dialect, still compiles and is enforced.
    const draft07Tuple = {
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } },
    };
    expect(check(draft07Tuple, { pair: ['a', 1] })).toBe('ok');
    expect(check(draft07Tuple, { pair: [1, 1] })).toContain('parameter `pair.0` should be a string');
    expect(
      check({ $schema: 'http://json-schema.org/draft-07/schema#', ...draft07Tuple }, { pair: ['a', 'b'] }),
    ).toContain('parameter `pair.1` should be a number');
  });

  test('two schemas with the same $id both compile, as tools of two servers (or a refreshed list) may have', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/schemas/shared.json',
      type: 'object',
      properties: { a: { type: 'string' } },
    };
    expect(check(schema, { a: 'x' })).toBe('ok');
    expect(check({ ...schema, properties: { a: { type: 'number' } } }, { a: 'x' })).toContain(
      'parameter `a` should be a number',
    );
  });

  test('a schema that does not compile is reported instead of thrown', () => {
    expect(jsonSchemaValidator('T', { type: 'object', properties: { a: { type: 'no-such-type' } } })).toHaveProperty(
      'error',
    );
  });
});

describe('passthroughObjectSchema', () => {
  test('passes objects through and refuses everything else', () => {
    expect(passthroughObjectSchema.safeParse({ a: 1 })).toEqual({ success: true, data: { a: 1 } });
    expect(passthroughObjectSchema.safeParse([1]).success).toBe(false);
    expect(passthroughObjectSchema.safeParse(null).success).toBe(false);
  });
});

// Attack: a server's schema carries a pattern that backtracks exponentially (`^(a+)+$`). The check
// ran in the agent's own thread, so one input of thirty "a"s and a "!" froze the whole session
// (every tool, cancellation, Ctrl-C) for seconds to years. A pattern now gets a time budget.
test('a pattern that backtracks without end is cut off, and the input refused naming the field and the pattern', () => {
  const schema = {
    type: 'object',
    properties: { name: { type: 'string', pattern: '^(a+)+$' } },
  } as const;
  const v = jsonSchemaValidator('mcp__evil__greet', schema);
  if (!('validate' in v)) throw new Error(v.error);
  expect(v.validate({ name: 'aaaa' })).toEqual({ result: true });
  // Every pattern is still enforced, each with its own expression.
  expect((v.validate({ name: 'bbb' }) as { message: string }).message).toContain('must match pattern "^(a+)+$"');
  const other = jsonSchemaValidator('t', {
    type: 'object',
    properties: { id: { type: 'string', pattern: '^[0-9]+$' } },
  });
  if (!('validate' in other)) throw new Error(other.error);
  expect(other.validate({ id: '42' })).toEqual({ result: true });
  expect(other.validate({ id: 'aaaa' }).result).toBe(false);
  const started = Date.now();
  const verdict = v.validate({ name: `${'a'.repeat(31)}!` });
  expect(Date.now() - started).toBeLessThan(2000);
  expect(verdict.result).toBe(false);
  expect((verdict as { message: string }).message).toMatch(/\^\(a\+\)\+\$.*aaaa.*too long/s);
  const out = outputSchemaValidator(schema);
  if ('error' in out) throw new Error(out.error);
  expect(out.check({ name: `${'a'.repeat(31)}!` }).join(' ')).toMatch(/too long/);
});

// Found by a review: the budget was per value, so twenty hostile items (or keys) took twenty
// budgets, and a pattern that ran out counted as "no match", which `patternProperties`, `not` and
// `anyOf` turn into a pass. The budget is now one per validation, and running out refuses.
test('one budget for the whole validation: many hostile values cost one budget, and running out refuses', () => {
  const evil = `${'a'.repeat(31)}!`;
  const items = outputSchemaValidator({
    type: 'object',
    properties: { xs: { type: 'array', items: { type: 'string', pattern: '^(a+)+$' } } },
  });
  if ('error' in items) throw new Error(items.error);
  const started = Date.now();
  expect(items.check({ xs: Array.from({ length: 20 }, () => evil) }).join(' ')).toMatch(/too long/);
  expect(Date.now() - started).toBeLessThan(PATTERN_BUDGET_MS * 5);
  for (const schema of [
    { type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } } },
    { type: 'object', propertyNames: { not: { pattern: '^(a+)+$' } } },
    { anyOf: [{ type: 'object', properties: { k: { type: 'string', not: { pattern: '^(a+)+$' } } } }] },
  ]) {
    const v = outputSchemaValidator(schema);
    if ('error' in v) throw new Error(v.error);
    const value = 'patternProperties' in schema || 'propertyNames' in schema ? { [evil]: 'x' } : { k: evil };
    expect(v.check(value).join(' '), JSON.stringify(schema)).toMatch(/too long/);
  }
});

test('a schema without a pattern is validated directly: no budget cuts it off, and it still refuses', () => {
  // Slower than the budget, on purpose: through the budget's script it would be cut off.
  const slow = Object.assign(
    (value: unknown) => {
      const until = Date.now() + PATTERN_BUDGET_MS * 1.5;
      while (Date.now() < until) {}
      return typeof value === 'number';
    },
    // A property named "pattern" is no pattern.
    { schema: { type: 'number', properties: { pattern: { type: 'string' } } } },
  );
  expect(watchPatterns(slow, 1)).toBe(true);
  expect(watchPatterns(slow, 'x')).toBe(false);
  // With a pattern in its schema, the same validation is cut off and refused.
  const guarded = Object.assign(slow.bind(null), { schema: { type: 'string', pattern: '^a' } });
  expect(watchPatterns(guarded, 1)).toBe(false);
});
