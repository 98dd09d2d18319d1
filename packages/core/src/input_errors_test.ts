import { expect, test } from 'vitest';
import { z } from 'zod';
import { formatInputError } from './input_errors.ts';

const schema = z.strictObject({
  file_path: z.string(),
  limit: z.number().int().min(1).optional(),
  mode: z.enum(['content', 'count']).optional(),
  nested: z.strictObject({ flag: z.boolean() }).optional(),
});

function errorFor(input: unknown): string {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('expected a failure');
  return formatInputError(parsed.error, { toolName: 'Grep', input });
}

test('names each bad field in words a model can act on', () => {
  expect(errorFor({ limit: '10', extra: 1, other: 2 })).toBe(
    [
      'Invalid input for tool "Grep":',
      '- required parameter `file_path` is missing (expected string)',
      '- parameter `limit` should be a number, got string "10"',
      '- unexpected parameters `extra`, `other`; remove them',
      'Fix these parameters and call the tool again.',
    ].join('\n'),
  );
});

test('enum, range and nested fields', () => {
  const text = errorFor({ file_path: 'a', limit: 0, mode: 'lines', nested: { flag: 'yes' } });
  expect(text).toContain('- parameter `limit`: too small');
  expect(text).toContain('- parameter `mode` must be one of "content", "count", got string "lines"');
  expect(text).toContain('- parameter `nested.flag` should be a boolean, got string "yes"');
});

test('an input that is not an object', () => {
  const parsed = schema.safeParse(null);
  expect(formatInputError(parsed.error!, { toolName: 'Grep', input: null })).toBe(
    'Invalid input for tool "Grep": expected a JSON object of parameters, got null.',
  );
  expect(formatInputError(schema.safeParse([1]).error!, { toolName: 'Grep', input: [1] })).toContain('got an array');
});
