import type { Family } from '../family.ts';
import type { AnyTool } from '../tool.ts';
import { toolInputJsonSchema } from '../json_schema.ts';

/** One problem the conformance check found. */
export interface ConformanceProblem {
  tool: string | undefined;
  problem: string;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The conformance check a contributor runs on a family before publishing it: tool names
 * valid and unique (aliases included), every input schema converts to JSON Schema with an
 * object at the top, descriptions present, read-only tools say whether they are
 * concurrency-safe, a lazy family's manifest matches its code.
 *
 * @param family The family, as its factory returns it.
 * @param options `sampleInputs` per tool name: inputs to probe the flag functions with
 * (default: `{}` and each of the tool's `inputExamples`).
 * @returns The problems; empty when the family conforms.
 *
 * @example
 * ```ts
 * import { checkFamily } from '@toolshed/core/testing';
 * import type { Family } from '@toolshed/core';
 * declare const fileTools: () => Family; // a family's factory, such as @toolshed/tool-fs's
 * import { expect, test } from 'vitest';
 *
 * test('fileTools conforms', async () => {
 *   expect(await checkFamily(fileTools())).toEqual([]);
 * });
 * ```
 */
export async function checkFamily(
  family: Family,
  options: { sampleInputs?: Record<string, unknown[]> } = {},
): Promise<ConformanceProblem[]> {
  const problems: ConformanceProblem[] = [];
  const add = (tool: string | undefined, problem: string) => problems.push({ tool, problem });
  if (!family.name) add(undefined, 'the family has no name');
  if (!family.version) add(undefined, `family "${family.name}" has no version`);
  let tools: readonly AnyTool[];
  try {
    tools = await family.loadTools();
  } catch (e) {
    add(undefined, `family "${family.name}" failed to load its tools: ${(e as Error).message}`);
    return problems;
  }
  const seen = new Set<string>();
  for (const tool of tools) {
    for (const name of [tool.name, ...tool.aliases]) {
      if (!NAME.test(name)) add(tool.name, `name "${name}" is invalid: use 1 to 64 letters, digits, "_" or "-"`);
      if (seen.has(name)) add(tool.name, `name "${name}" is used twice in family "${family.name}"`);
      seen.add(name);
    }
    const description =
      typeof tool.description === 'function' ? await tool.description({ cwd: process.cwd() }) : tool.description;
    if (!description || description.trim().length < 10)
      add(tool.name, 'the description is missing or shorter than 10 characters');
    try {
      const schema = toolInputJsonSchema(tool);
      if (schema.type !== 'object') add(tool.name, 'the input schema is not an object');
    } catch (e) {
      add(tool.name, (e as Error).message);
    }
    for (const input of sampleInputsOf(tool, options.sampleInputs)) {
      const parsed = tool.inputSchema.safeParse(input);
      if (!parsed.success) continue;
      let readOnly: unknown;
      let safe: unknown;
      try {
        readOnly = tool.isReadOnly(parsed.data);
        safe = tool.isConcurrencySafe(parsed.data);
      } catch (e) {
        add(tool.name, `isReadOnly/isConcurrencySafe threw for ${JSON.stringify(input)}: ${(e as Error).message}`);
        continue;
      }
      if (typeof readOnly !== 'boolean' || typeof safe !== 'boolean')
        add(tool.name, 'isReadOnly and isConcurrencySafe must return booleans');
      if (readOnly === false && safe === true)
        add(
          tool.name,
          `is concurrency-safe but not read-only for ${JSON.stringify(input)}: a call that writes must not run in parallel`,
        );
    }
    for (const example of tool.inputExamples) {
      if (!tool.inputSchema.safeParse(example).success)
        add(tool.name, `input example ${JSON.stringify(example)} does not match the input schema`);
    }
  }
  if (family.manifest) {
    const names = new Set(tools.map((t) => t.name));
    for (const entry of family.manifest) {
      if (!names.has(entry.name))
        add(entry.name, `the manifest lists "${entry.name}" but the family's code has no such tool`);
    }
    const listed = new Set(family.manifest.map((m) => m.name));
    for (const tool of tools)
      if (!listed.has(tool.name)) add(tool.name, `"${tool.name}" is missing from the family's manifest`);
  }
  return problems;
}

function sampleInputsOf(tool: AnyTool, samples: Record<string, unknown[]> | undefined): unknown[] {
  return [{}, ...tool.inputExamples, ...(samples?.[tool.name] ?? [])];
}
