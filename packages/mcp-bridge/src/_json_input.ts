import type { JsonSchema, ValidationResult } from '@toolshed/core';
import { formatInputError } from '@toolshed/core/internal';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { z } from 'zod';
import { budgetedRegExp, watchPatterns } from './_pattern_budget.ts';

// ajv-formats is CommonJS; under ESM its default import is the module object or the function.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv | Ajv2019 | Ajv2020,
) => unknown;

type Dialect = 'draft-07' | '2019-09' | '2020-12';
const validators = new Map<Dialect, Ajv | Ajv2019 | Ajv2020>();

function ajv(dialect: Dialect): Ajv | Ajv2019 | Ajv2020 {
  let instance = validators.get(dialect);
  if (!instance) {
    // verbose: errors carry their parent schema, so a missing field's expected type can be named.
    // strict: false — servers' schemas carry keywords ajv does not know (`title` variants, vendor
    // extensions); a JSON Schema validator must ignore what it does not understand.
    // addUsedSchema: false — two servers (or one server's refreshed list) may reuse an `$id`.
    // code.regExp: a server's `pattern` runs with a time budget (see _pattern_budget.ts).
    const options = {
      allErrors: true,
      strict: false,
      validateFormats: true,
      verbose: true,
      addUsedSchema: false,
      code: { regExp: budgetedRegExp },
    };
    instance =
      dialect === '2020-12' ? new Ajv2020(options) : dialect === '2019-09' ? new Ajv2019(options) : new Ajv(options);
    addFormats(instance);
    validators.set(dialect, instance);
  }
  return instance;
}

/**
 * The dialects to try for a schema: the one its `$schema` names, else MCP's default, 2020-12
 * (SEP-1613), then draft-07 for the older servers that wrote draft-07 without saying so
 * (tuple `items: [...]` does not compile as 2020-12).
 */
function dialectsOf(schema: JsonSchema): Dialect[] {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : undefined;
  if (declared === undefined) return ['2020-12', 'draft-07'];
  if (declared.includes('2020-12')) return ['2020-12'];
  if (declared.includes('2019-09')) return ['2019-09'];
  // draft-04, -06 and -07 differ little for input checking; ajv's default class reads them.
  return ['draft-07'];
}

/**
 * An `inputSchema` that accepts any JSON object, unknown keys kept, and leaves the checking to
 * {@linkcode jsonSchemaValidator}: MCP tools and the resource tools describe their input in
 * JSON Schema, and a conversion to zod would lose what zod cannot say. Core sends the tool's
 * `inputJSONSchema` to the model instead of converting this one. A non-object input fails
 * here, and core words it as for a built-in tool.
 *
 * @example
 * ```ts
 * import { passthroughObjectSchema } from './_json_input.ts';
 *
 * passthroughObjectSchema.safeParse({ a: 1 }); // { success: true, data: { a: 1 } }
 * ```
 */
export const passthroughObjectSchema = z.looseObject({});

let compilations = 0;

/**
 * How many schemas {@linkcode jsonSchemaValidator} has compiled in this process: tests count
 * them to check that connecting compiles none.
 *
 * @returns The count.
 *
 * @example
 * ```ts
 * import { schemaCompilations } from './_json_input.ts';
 *
 * const before = schemaCompilations();
 * ```
 */
export function schemaCompilations(): number {
  return compilations;
}

/**
 * Compiles a JSON Schema into a `validateInput` whose messages are the ones core writes for a
 * built-in tool's zod errors ("required parameter `x` is missing", "parameter `x` should be a
 * string, got number 5", "unexpected parameter `y`"). The schema is read in the dialect its
 * `$schema` names (draft-07, 2019-09, 2020-12), or as 2020-12 — MCP's default — when it names none.
 *
 * @param toolName The tool, named in the message.
 * @param schema The JSON Schema of the input.
 * @returns The validator, or an error message when the schema does not compile (the caller
 *   then lets the server check the input).
 *
 * @example
 * ```ts
 * import { jsonSchemaValidator } from './_json_input.ts';
 *
 * const v = jsonSchemaValidator('mcp__s__echo', { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
 * if ('validate' in v) v.validate({}); // { result: false, message: '... required parameter `message` is missing (expected string) ...' }
 * ```
 */
export function jsonSchemaValidator(
  toolName: string,
  schema: JsonSchema,
): { validate: (input: unknown) => ValidationResult } | { error: string } {
  let check: ValidateFunction | undefined;
  let error = '';
  // `$schema` is read here to pick the dialect; left in, ajv would look for that meta-schema.
  const { $schema: _dialect, ...rest } = schema;
  compilations++;
  for (const dialect of dialectsOf(schema)) {
    try {
      check = ajv(dialect).compile(rest);
      break;
    } catch (e) {
      error ||= (e as Error).message;
    }
  }
  if (!check) return { error };
  const compiled = check;
  return {
    validate(input: unknown): ValidationResult {
      if (watchPatterns(compiled, input)) return { result: true };
      const issues = (compiled.errors ?? []).map((error) => issueOf(error));
      // core's formatter takes a zod error; only `issues` is read.
      const message = formatInputError({ issues } as unknown as Parameters<typeof formatInputError>[0], {
        toolName,
        input,
      });
      return { result: false, message };
    },
  };
}

/**
 * Compiles the JSON Schema of a tool's `structuredContent` (its `outputSchema`) into a check
 * that names each field that does not match, or says the schema does not compile.
 *
 * @param schema The output schema.
 * @returns A check giving the mismatches (none: it matches), or the compile error.
 *
 * @example
 * ```ts
 * import { outputSchemaValidator } from './_json_input.ts';
 *
 * const v = outputSchemaValidator({ type: 'object', properties: { n: { type: 'integer' } } });
 * if ('check' in v) v.check({ n: 'x' }); // ['structuredContent.n must be integer (got string "x")']
 * ```
 */
export function outputSchemaValidator(schema: JsonSchema): { check: (value: unknown) => string[] } | { error: string } {
  const { $schema: _dialect, ...rest } = schema;
  let error = '';
  for (const dialect of dialectsOf(schema)) {
    try {
      compilations++;
      const compiled = ajv(dialect).compile(rest);
      return {
        check(value: unknown): string[] {
          if (watchPatterns(compiled, value)) return [];
          return (compiled.errors ?? []).map((e) => {
            const field = [
              'structuredContent',
              ...e.instancePath
                .split('/')
                .slice(1)
                .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')),
            ];
            if (e.keyword === 'required')
              field.push(String((e.params as { missingProperty?: unknown }).missingProperty));
            const got = e.keyword === 'required' ? 'missing' : `got ${describeValue(e.data)}`;
            const what = e.keyword === 'required' ? 'is required' : (e.message ?? `does not match (${e.keyword})`);
            return `${field.join('.')} ${what} (${got})`;
          });
        },
      };
    } catch (e) {
      error ||= (e as Error).message;
    }
  }
  return { error };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return `${typeof value} ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
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
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const field = String(params.missingProperty);
      const property = (error.parentSchema as { properties?: Record<string, { type?: unknown }> } | undefined)
        ?.properties?.[field];
      const expected =
        typeof property?.type === 'string'
          ? property.type
          : Array.isArray(property?.type)
            ? property.type.join(' or ')
            : 'a value';
      return { code: 'invalid_type', path: [...path, field], expected, message: error.message ?? '' };
    }
    case 'type':
      return {
        code: 'invalid_type',
        path,
        expected: Array.isArray(params.type) ? params.type.join(' or ') : String(params.type),
        message: error.message ?? '',
      };
    case 'additionalProperties':
      return {
        code: 'unrecognized_keys',
        path,
        keys: [String(params.additionalProperty)],
        message: error.message ?? '',
      };
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
