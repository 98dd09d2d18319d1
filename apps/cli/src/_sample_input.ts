/** A JSON schema, as much of it as a sample input needs. */
interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  anyOf?: SchemaNode[];
}

/**
 * A plain input for a tool, from its input JSON schema: each required field gets the simplest
 * value of its type (`"x"` for a string, the first of an enum, the minimum or 1 for a number,
 * `false`, `[]`, `{}`), optional fields are left out. `toolshed tools` computes the read-only
 * and concurrency-safe flags for it, the common case, where `{}` is not a valid input.
 *
 * @param schema The tool's input schema (`input_schema` of its provider definition).
 * @returns The sample input.
 *
 * @example
 * ```ts
 * import { sampleInput } from './_sample_input.ts';
 *
 * sampleInput({ type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] });
 * // { file_path: 'x' }
 * ```
 */
export function sampleInput(schema: unknown): Record<string, unknown> {
  const value = sample(schema as SchemaNode, 0);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function sample(node: SchemaNode | undefined, depth: number): unknown {
  if (!node || typeof node !== 'object' || depth > 4) return undefined;
  if ('const' in node) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  if ('default' in node) return node.default;
  if (Array.isArray(node.anyOf) && node.anyOf.length > 0) return sample(node.anyOf[0], depth + 1);
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case 'string':
      return 'x';
    case 'number':
    case 'integer':
      return typeof node.minimum === 'number' ? Math.max(node.minimum, 1) : 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
    case undefined: {
      const out: Record<string, unknown> = {};
      for (const key of node.required ?? []) out[key] = sample(node.properties?.[key], depth + 1);
      return out;
    }
    default:
      return null;
  }
}
