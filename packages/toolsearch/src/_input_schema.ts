// ToolSearch's input schema without zod. This package cannot import zod (it is not among its
// dependencies, see the README), so the schema is the JSON Schema sent to the model plus a
// validator with zod's `safeParse` shape, whose issues use zod's codes so core's
// `formatInputError` words them as it does for every other tool.

/** ToolSearch's input, after parsing. */
export interface ToolSearchInput {
  query: string;
  max_results?: number | undefined;
}

/** The most results one search may ask for. */
export const MAX_RESULTS_LIMIT = 25;

/** The JSON Schema the model sees. */
export const TOOL_SEARCH_JSON_SCHEMA = {
  type: 'object',
  properties: {
    query: {
      type: 'string',
      description:
        'Keywords to search for ("slack send message"), "+word" to require a word in the name ("+slack send"), or "select:Name1,Name2" to load tools by exact name',
    },
    max_results: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_RESULTS_LIMIT,
      default: 5,
      description: `How many tools to return at most (default 5, at most ${MAX_RESULTS_LIMIT})`,
    },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

interface Issue {
  code: string;
  path: (string | number)[];
  message: string;
  expected?: string;
  keys?: string[];
}

type SafeParse =
  | { success: true; data: ToolSearchInput }
  | { success: false; error: { issues: Issue[]; message: string } };

/** A zod-shaped schema object: `safeParse`, `parse`, and the JSON Schema for the request. */
export const toolSearchInputSchema = {
  safeParse(input: unknown): SafeParse {
    const issues: Issue[] = [];
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      issues.push({ code: 'invalid_type', path: [], expected: 'object', message: 'Invalid input: expected object' });
      return fail(issues);
    }
    const record = input as Record<string, unknown>;
    const extra = Object.keys(record).filter((k) => k !== 'query' && k !== 'max_results');
    if (extra.length)
      issues.push({
        code: 'unrecognized_keys',
        path: [],
        keys: extra,
        message: `Unrecognized keys: ${extra.join(', ')}`,
      });
    if (typeof record.query !== 'string') {
      issues.push({
        code: 'invalid_type',
        path: ['query'],
        expected: 'string',
        message: 'Invalid input: expected string',
      });
    }
    const max = record.max_results;
    if (max !== undefined) {
      if (typeof max !== 'number' || !Number.isFinite(max)) {
        issues.push({
          code: 'invalid_type',
          path: ['max_results'],
          expected: 'number',
          message: 'Invalid input: expected number',
        });
      } else if (!Number.isInteger(max)) {
        issues.push({
          code: 'invalid_type',
          path: ['max_results'],
          expected: 'int',
          message: 'Invalid input: expected int, received number',
        });
      } else if (max < 1) {
        issues.push({ code: 'too_small', path: ['max_results'], message: 'Too small: expected number to be >=1' });
      } else if (max > MAX_RESULTS_LIMIT) {
        issues.push({
          code: 'too_big',
          path: ['max_results'],
          message: `Too big: expected number to be <=${MAX_RESULTS_LIMIT}`,
        });
      }
    }
    if (issues.length) return fail(issues);
    const data: ToolSearchInput = { query: record.query as string };
    if (max !== undefined) data.max_results = max as number;
    return { success: true, data };
  },
  parse(input: unknown): ToolSearchInput {
    const result = toolSearchInputSchema.safeParse(input);
    if (!result.success) throw new TypeError(result.error.message);
    return result.data;
  },
};

function fail(issues: Issue[]): SafeParse {
  return { success: false, error: { issues, message: issues.map((i) => i.message).join('; ') } };
}
