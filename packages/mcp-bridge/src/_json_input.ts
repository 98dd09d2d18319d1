import { formatInputError, type JsonSchema, type Tool, type ValidationResult } from '@toolshed/core';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/** The zod type a Tool's `inputSchema` has, named without importing zod (not a dependency here). */
type InputSchema = Tool['inputSchema'];

// ajv-formats is CommonJS; under ESM its default import is the module object or the function.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

let shared: Ajv | undefined;
function ajv(): Ajv {
  if (!shared) {
    // verbose: errors carry their parent schema, so a missing field's expected type can be named.
    // strict: false — servers' schemas carry keywords ajv does not know (`title` variants, vendor
    // extensions); a JSON Schema validator must ignore what it does not understand.
    shared = new Ajv({ allErrors: true, strict: false, validateFormats: true, verbose: true });
    addFormats(shared);
  }
  return shared;
}

/**
 * An `inputSchema` that accepts any JSON object and leaves the checking to
 * {@linkcode jsonSchemaValidator}: MCP tools and the resource tools describe their input in
 * JSON Schema, and a conversion to zod would lose what zod cannot say. Only `safeParse` is
 * implemented, which is all the pipeline asks of an input schema once `inputJSONSchema` is set
 * (core sends that schema as is). A non-object input fails here, and core words it as for a
 * built-in tool.
 *
 * @example
 * ```ts
 * passthroughObjectSchema.safeParse({ a: 1 }); // { success: true, data: { a: 1 } }
 * ```
 */
export const passthroughObjectSchema = {
  safeParse(input: unknown) {
    if (input !== null && typeof input === 'object' && !Array.isArray(input)) return { success: true, data: input };
    return { success: false, error: { issues: [{ code: 'invalid_type', expected: 'object', path: [], message: 'expected an object' }] } };
  },
} as unknown as InputSchema;

/**
 * Compiles a JSON Schema into a `validateInput` whose messages are the ones core writes for a
 * built-in tool's zod errors ("required parameter `x` is missing", "parameter `x` should be a
 * string, got number 5", "unexpected parameter `y`").
 *
 * @param toolName The tool, named in the message.
 * @param schema The JSON Schema of the input.
 * @returns The validator, or an error message when the schema does not compile (the caller
 *   then lets the server check the input).
 *
 * @example
 * ```ts
 * const v = jsonSchemaValidator('mcp__s__echo', { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
 * if ('validate' in v) v.validate({}); // { result: false, message: '... required parameter `message` is missing (expected string) ...' }
 * ```
 */
export function jsonSchemaValidator(toolName: string, schema: JsonSchema): { validate: (input: unknown) => ValidationResult } | { error: string } {
  let check: ValidateFunction;
  try {
    // `$schema` names a draft ajv may not have loaded (2020-12); the keywords are what matter.
    const { $schema: _ignored, ...rest } = schema;
    check = ajv().compile(rest);
  } catch (e) {
    return { error: (e as Error).message };
  }
  return {
    validate(input: unknown): ValidationResult {
      if (check(input)) return { result: true };
      const issues = (check.errors ?? []).map((error) => issueOf(error));
      // core's formatter takes a zod error; only `issues` is read.
      const message = formatInputError(toolName, { issues } as unknown as Parameters<typeof formatInputError>[1], input);
      return { result: false, message };
    },
  };
}

interface ZodLikeIssue {
  code: string;
  path: (string | number)[];
  message: string;
  expected?: string;
  keys?: string[];
  values?: unknown[];
}

function issueOf(error: ErrorObject): ZodLikeIssue {
  const path = error.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const field = String(params.missingProperty);
      const property = (error.parentSchema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties?.[field];
      const expected = typeof property?.type === 'string' ? property.type : Array.isArray(property?.type) ? property.type.join(' or ') : 'a value';
      return { code: 'invalid_type', path: [...path, field], expected, message: error.message ?? '' };
    }
    case 'type':
      return { code: 'invalid_type', path, expected: Array.isArray(params.type) ? params.type.join(' or ') : String(params.type), message: error.message ?? '' };
    case 'additionalProperties':
      return { code: 'unrecognized_keys', path, keys: [String(params.additionalProperty)], message: error.message ?? '' };
    case 'enum':
      return { code: 'invalid_value', path, values: params.allowedValues as unknown[], message: error.message ?? '' };
    case 'const':
      return { code: 'invalid_value', path, values: [params.allowedValue], message: error.message ?? '' };
    case 'minimum':
    case 'exclusiveMinimum':
    case 'minLength':
    case 'minItems':
    case 'minProperties':
      return { code: 'too_small', path, message: error.message ?? '' };
    case 'maximum':
    case 'exclusiveMaximum':
    case 'maxLength':
    case 'maxItems':
    case 'maxProperties':
      return { code: 'too_big', path, message: error.message ?? '' };
    default:
      return { code: 'custom', path, message: error.message ?? `does not match the schema (${error.keyword})` };
  }
}
