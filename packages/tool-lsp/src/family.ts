import { createRequire } from 'node:module';
import { defineFamily, type Family } from '@toolshed/core';
import { type LspToolOptions, makeLspTool, type ResolvedLspConfig, resolveLspConfig } from './lsp_tool.ts';
import { LSP_SETTINGS, type LspSettings } from './lsp_settings.ts';
import type { LspServerConfig } from './server_config.ts';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@linkcode lspTools}: the LSP tool's. */
export interface LspToolsOptions extends LspToolOptions {}

/**
 * The `lsp` family: the LSP tool (go to definition, references, hover, symbols,
 * implementations, call hierarchy) over real language servers, started on the first call that
 * needs one and stopped with the session. Deferred by default: ToolSearch finds it.
 *
 * A session that reads settings files also takes their `lsp` key (see `lspSettingsSchema`):
 * its servers are merged field by field over the ones given here, its timeouts replace these.
 * Only trusted files count: a project the user has not trusted cannot choose what is started.
 *
 * @param options The servers (merged over {@linkcode DEFAULT_LSP_SERVERS}), the timeout, deferral.
 * @returns The family, for `createSession({ families })`.
 * @throws {TypeError} For a malformed server (see {@linkcode checkServerConfigs}).
 * @throws {RangeError} For a `timeoutMs` or `startTimeoutMs` that is not a positive number.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { lspTools } from '@toolshed/tool-lsp';
 *
 * const session = await createSession({
 *   cwd: process.cwd(),
 *   settingsSources: ['user', 'project'], // their "lsp" keys add servers
 *   families: [lspTools({ servers: { typescript: { command: 'typescript-language-server', args: ['--stdio'], extensions: ['.ts', '.tsx'] } } })],
 * });
 * ```
 */
export function lspTools(options: LspToolsOptions = {}): Family {
  const base = resolveLspConfig(options);
  const bySession = new Map<string, ResolvedLspConfig>();
  const tool = makeLspTool(options, (sessionId) => bySession.get(sessionId) ?? base);
  return defineFamily({
    name: 'lsp',
    version,
    tools: [tool],
    settings: LSP_SETTINGS,
    setup(api) {
      const settings = api.settings as LspSettings | undefined;
      if (settings === undefined) return;
      const servers: Record<string, Partial<LspServerConfig> | false> = { ...options.servers };
      for (const [name, server] of Object.entries(settings.servers ?? {})) {
        // Field by field over what the code gave for that language (itself over the default).
        const given = servers[name];
        servers[name] = server === false ? false : ({ ...(given || {}), ...server } as Partial<LspServerConfig>);
      }
      const timeoutMs = settings.timeoutMs ?? options.timeoutMs;
      const startTimeoutMs = settings.startTimeoutMs ?? options.startTimeoutMs;
      try {
        bySession.set(
          api.sessionId,
          resolveLspConfig({
            servers,
            ...(timeoutMs === undefined ? {} : { timeoutMs }),
            ...(startTimeoutMs === undefined ? {} : { startTimeoutMs }),
          }),
        );
      } catch (e) {
        api.emit({
          type: 'notice',
          level: 'error',
          message: `The "lsp" settings cannot be used, so the LSP tool keeps the servers given in code: ${(e as Error).message.replace(/^lspTools: /, '')}. Fix the "lsp" key of your settings file.`,
        });
        return;
      }
      api.onClose(() => void bySession.delete(api.sessionId));
    },
  });
}
