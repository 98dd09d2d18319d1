import type { FamilySettingsDef } from '@toolshed/core';
import { z } from 'zod';

const serverSchema = z.strictObject({
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  extensions: z.array(z.string()).min(1).optional(),
  languageIds: z.record(z.string(), z.string()).optional(),
  initializationOptions: z.unknown().optional(),
  env: z.record(z.string(), z.string()).optional(),
  install: z.string().optional(),
});

/**
 * The `lsp` key of a settings file: servers by language (merged field by field over the ones
 * given in code and the defaults; `false` removes one) and the timeouts. A language without a
 * default needs `command` and `extensions`.
 *
 * @example
 * ```ts
 * import { lspSettingsSchema } from '@toolshed/tool-lsp';
 *
 * lspSettingsSchema.parse({ servers: { rust: { command: 'rust-analyzer', extensions: ['.rs'] }, python: false } });
 * ```
 */
export const lspSettingsSchema = z.strictObject({
  servers: z.record(z.string(), z.union([z.literal(false), serverSchema])).optional(),
  timeoutMs: z.number().positive().optional(),
  startTimeoutMs: z.number().positive().optional(),
});

/** What the `lsp` settings key holds. */
export type LspSettings = z.output<typeof lspSettingsSchema>;

/**
 * The LSP family's settings key, as `defineFamily({ settings })` takes it: a session checks
 * every settings file's `lsp` value with it. Only trusted files count (the user's own, a
 * trusted project's, `--settings` files): a server's `command` starts a process.
 *
 * @example
 * ```ts
 * import { lintSettings } from '@toolshed/core';
 * import { LSP_SETTINGS } from '@toolshed/tool-lsp';
 *
 * // What `toolshed rules lint` does when the LSP family is loaded: the "lsp" key is checked too.
 * const report = await lintSettings({ cwd: process.cwd(), sources: ['user', 'project'], familySettings: [LSP_SETTINGS] });
 * ```
 */
export const LSP_SETTINGS: FamilySettingsDef = {
  key: 'lsp',
  schema: lspSettingsSchema,
  help: 'See "Settings" in the @toolshed/tool-lsp README: {"lsp": {"servers": {"rust": {"command": "rust-analyzer", "extensions": [".rs"]}}}}.',
};
