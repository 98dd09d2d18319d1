import type { z } from 'zod';

/**
 * A top-level key a family owns in the settings files (`"lsp": {…}` for the LSP family): its
 * schema checks every file that sets it, and the family's `setup` gets the merged value as
 * `api.settings`. Project files the user has not trusted never set it: a family's settings may
 * start processes (a language server's `command`), so they come only from the user's own
 * settings, a trusted project, or `--settings` files.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import type { FamilySettingsDef } from '@toolshed/core';
 *
 * const lspSettings: FamilySettingsDef = {
 *   key: 'lsp',
 *   schema: z.strictObject({ servers: z.record(z.string(), z.strictObject({ command: z.string() })).optional() }),
 *   help: 'See "Settings" in the @toolshed/tool-lsp README.',
 * };
 * ```
 */
export interface FamilySettingsDef {
  /** The top-level key, not one of Toolshed's or Claude Code's own (`permissions`, `hooks`, …). */
  key: string;
  /** Checks one file's value; the merged value is checked again before `setup` sees it. */
  schema: z.ZodType;
  /** Where the key is documented: the last sentence of every error about it. */
  help?: string;
}

/** The merged value of one family key, and the files that set it (lowest precedence first). */
export interface FamilySettingValue {
  value: unknown;
  sources: string[];
}

/**
 * Checks one file's value of a family key and returns the problems, each naming the key path
 * inside the value (`lsp.servers.rust.command`), what is wrong and where the key is documented.
 *
 * @param def The family's key and schema.
 * @param value The file's value of that key.
 * @returns The parsed value, or the problems (key path and message).
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { checkFamilySetting } from './family_settings.ts';
 *
 * const result = checkFamilySetting({ key: 'lsp', schema: z.strictObject({ timeoutMs: z.number() }) }, { timeoutMs: 'x' });
 * console.log(result.problems[0]?.key); // lsp.timeoutMs
 * ```
 */
export function checkFamilySetting(
  def: FamilySettingsDef,
  value: unknown,
): { value?: unknown; problems: { key: string; message: string }[] } {
  const parsed = def.schema.safeParse(value);
  if (parsed.success) return { value: parsed.data, problems: [] };
  const problems = parsed.error.issues.map((issue) => {
    const key = [def.key, ...issue.path.map(String)].join('.');
    const unknownKeys = issue.code === 'unrecognized_keys' ? (issue as { keys?: string[] }).keys : undefined;
    const message = unknownKeys
      ? `has ${unknownKeys.length === 1 ? 'a key' : 'keys'} it does not know: ${unknownKeys.map((k) => JSON.stringify(k)).join(', ')} (${issue.message})`
      : `is invalid: ${issue.message}`;
    return { key, message };
  });
  return { problems };
}

/**
 * Merges the values of one family key from two files, the later winning: objects merge key by
 * key (so a project adds a language server without repeating the user's), anything else
 * (strings, numbers, lists) is replaced whole.
 *
 * @param lower The value from the file of lower precedence (or undefined).
 * @param higher The value from the file of higher precedence.
 * @returns The merged value; neither input is changed.
 *
 * @example
 * ```ts
 * import { mergeFamilySetting } from './family_settings.ts';
 *
 * mergeFamilySetting({ servers: { ts: { command: 'a' } } }, { servers: { py: { command: 'b' } } });
 * // { servers: { ts: { command: 'a' }, py: { command: 'b' } } }
 * ```
 */
export function mergeFamilySetting(lower: unknown, higher: unknown): unknown {
  if (!isPlainObject(lower) || !isPlainObject(higher)) return higher;
  const out: Record<string, unknown> = { ...lower };
  for (const [key, value] of Object.entries(higher)) {
    const merged = Object.hasOwn(out, key) ? mergeFamilySetting(out[key], value) : value;
    // defineProperty, not assignment: a JSON key "__proto__" is data, never the prototype.
    Object.defineProperty(out, key, { value: merged, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
