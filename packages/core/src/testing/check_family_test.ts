import { expect, test } from 'vitest';
import { z } from 'zod';
import { checkFamily } from './check_family.ts';
import { defineFamily } from '../family.ts';
import { buildTool } from '../tool.ts';
import { echoTool } from '../_test_tools.ts';

const tool = (name: string, extra: Record<string, unknown> = {}) =>
  buildTool({
    name,
    description: 'A tool for the conformance tests.',
    inputSchema: z.strictObject({}),
    async call() {
      return { data: 1 };
    },
    ...extra,
  });

test('a well-formed family conforms', async () => {
  expect(await checkFamily(defineFamily({ name: 'ok', version: '1.0.0', tools: [echoTool, tool('Other')] }))).toEqual(
    [],
  );
});

test('reports duplicate names, short descriptions, unconvertible schemas and unsafe flags', async () => {
  const family = defineFamily({
    name: 'bad',
    version: '1.0.0',
    tools: [
      tool('Dup'),
      tool('Other', { aliases: ['Dup'] }),
      tool('Short', { description: 'tiny' }),
      tool('Transform', { inputSchema: z.strictObject({ d: z.date() }) }),
      tool('Racy', { isReadOnly: () => false, isConcurrencySafe: () => true }),
      tool('BadExample', { inputSchema: z.strictObject({ n: z.number() }), inputExamples: [{ n: 'one' }] }),
    ],
  });
  const problems = (await checkFamily(family)).map((p) => `${p.tool}: ${p.problem}`);
  expect(problems).toEqual([
    'Other: name "Dup" is used twice in family "bad"',
    'Short: the description is missing or shorter than 10 characters',
    expect.stringMatching(/^Transform: The input schema of tool "Transform" cannot be converted to JSON Schema/),
    'Racy: is concurrency-safe but not read-only for {}: a call that writes must not run in parallel',
    'BadExample: input example {"n":"one"} does not match the input schema',
  ]);
});

test('a lazy family whose manifest and code disagree is reported', async () => {
  const family = defineFamily({
    name: 'lazy',
    version: '1.0.0',
    manifest: [
      { name: 'Echo', description: 'Echoes.' },
      { name: 'Ghost', description: 'Not in the code.' },
    ],
    load: async () => [echoTool, tool('Unlisted')],
  });
  expect((await checkFamily(family)).map((p) => p.problem)).toEqual([
    'the manifest lists "Ghost" but the family\'s code has no such tool',
    '"Unlisted" is missing from the family\'s manifest',
  ]);
});
