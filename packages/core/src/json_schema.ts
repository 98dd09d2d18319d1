import { z } from 'zod';
import type { AnyTool, JsonSchema, ObjectJsonSchema } from './tool.ts';

const cache = new WeakMap<AnyTool, ObjectJsonSchema>();

/**
 * The JSON Schema of a tool's input, as sent to a model: the tool's own `inputJSONSchema` if it
 * has one (MCP tools), otherwise zod 4's conversion of `inputSchema` (the input side, no
 * `$schema` key). Cached per tool, so repeated requests are byte-identical and cheap.
 *
 * @param tool The tool.
 * @returns A JSON Schema object with `type: "object"` at the top.
 * @throws {TypeError} If the schema cannot be expressed in JSON Schema (a transform-only type, say).
 *
 * @example
 * ```ts
 * import { type AnyTool } from '@toolshed/core';
 * import { toolInputJsonSchema } from '@toolshed/core/internal';
 * declare const readTool: AnyTool; // a family's Read tool (tool-fs's readTool)
 *
 * toolInputJsonSchema(readTool); // { type: 'object', properties: { file_path: {...} }, required: [...] }
 * ```
 */
export function toolInputJsonSchema(tool: AnyTool): ObjectJsonSchema {
  const cached = cache.get(tool);
  if (cached) return cached;
  let schema: JsonSchema;
  if (tool.inputJSONSchema) {
    schema = tool.inputJSONSchema;
  } else {
    try {
      const { $schema: _ignored, ...rest } = z.toJSONSchema(tool.inputSchema, {
        io: 'input',
        unrepresentable: 'throw',
      }) as JsonSchema;
      schema = rest;
    } catch (e) {
      throw new TypeError(
        `The input schema of tool "${tool.name}" cannot be converted to JSON Schema: ${(e as Error).message}`,
      );
    }
  }
  const objectSchema: ObjectJsonSchema =
    schema.type === 'object' ? (schema as ObjectJsonSchema) : { ...schema, type: 'object' };
  cache.set(tool, objectSchema);
  return objectSchema;
}
