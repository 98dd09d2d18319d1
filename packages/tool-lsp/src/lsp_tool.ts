import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { buildTool, type Tool, type ToolContext } from '@toolshed/core';
import { resolvePath } from '@toolshed/core/internal';
import type {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  SymbolInformation,
  WorkspaceSymbol,
} from 'vscode-languageserver-protocol';
import { z } from 'zod';
import {
  callItemLine,
  callLines,
  type LocationView,
  hoverMarkdown,
  locationLines,
  symbolOutline,
  toLocations,
  workspaceSymbolLines,
} from './_format.ts';
import { locationView } from './_location_view.ts';
import { fileUri, type LspServer } from './_lsp_server.ts';
import { ServerPool } from './_server_pool.ts';
import { withTrustedTypeScript } from './_workspace_typescript.ts';
import { checkServerConfigs, DEFAULT_LSP_SERVERS, type LspServerConfig, serverForFile } from './server_config.ts';

/** The operations of the LSP tool, with Claude Code's names. */
export const LSP_OPERATIONS = [
  'goToDefinition',
  'findReferences',
  'hover',
  'documentSymbol',
  'workspaceSymbol',
  'goToImplementation',
  'prepareCallHierarchy',
  'incomingCalls',
  'outgoingCalls',
] as const;

/** One of {@linkcode LSP_OPERATIONS}. */
export type LspOperation = (typeof LSP_OPERATIONS)[number];

const MAX_OPENED_TARGETS = 10;

/** The server capability each operation needs, as `initialize` announces it. */
const CAPABILITIES: Readonly<Record<LspOperation, string>> = {
  goToDefinition: 'definitionProvider',
  findReferences: 'referencesProvider',
  hover: 'hoverProvider',
  documentSymbol: 'documentSymbolProvider',
  workspaceSymbol: 'workspaceSymbolProvider',
  goToImplementation: 'implementationProvider',
  prepareCallHierarchy: 'callHierarchyProvider',
  incomingCalls: 'callHierarchyProvider',
  outgoingCalls: 'callHierarchyProvider',
};
const NO_POSITION: readonly LspOperation[] = ['documentSymbol', 'workspaceSymbol'];

/** The default `head_limit`: results shown per call. */
export const DEFAULT_LSP_HEAD_LIMIT = 100;

/** Input of {@linkcode lspTool}: Claude Code's fields, plus `query` and Grep's paging. */
export const lspInput = z.strictObject({
  operation: z.enum(LSP_OPERATIONS).describe('The operation to perform'),
  filePath: z.string().min(1).describe('The absolute or relative path to the file'),
  line: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      'The line number (1-based, as shown in editors); needed by every operation except documentSymbol and workspaceSymbol',
    ),
  character: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('The character offset (1-based, as shown in editors); needed with line'),
  query: z
    .string()
    .optional()
    .describe('workspaceSymbol only: the symbol name to search for; defaults to the word at line:character'),
  head_limit: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(`Show only the first N results (default ${DEFAULT_LSP_HEAD_LIMIT}; 0 for all)`),
  offset: z.number().int().min(0).optional().describe('Skip the first N results before head_limit applies (default 0)'),
});

/** What the LSP tool returns; the model reads `text`. */
export interface LspOutput {
  operation: LspOperation;
  /** The file asked about, absolute. */
  filePath: string;
  /** Results found (locations, symbols, calls), before paging. */
  resultCount: number;
  /** The answer as the model reads it. */
  text: string;
}

/** Options of {@linkcode createLspTool}. */
export interface LspToolOptions {
  /**
   * Language servers by language name, merged over {@linkcode DEFAULT_LSP_SERVERS} (a language
   * that has a default is merged field by field over it); `false` removes a default. @default DEFAULT_LSP_SERVERS (TypeScript/JavaScript, Python)
   */
  servers?: Readonly<Record<string, LspServerConfig | Partial<LspServerConfig> | false>>;
  /** Milliseconds a server has to answer each request. @default 30000 */
  timeoutMs?: number;
  /** Milliseconds a server has to start and answer `initialize` (a big project loads slowly). @default 60000 */
  startTimeoutMs?: number;
  /** The servers' environment, under the settings files' `env` (`ToolContext.env`). @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Deferred: only the name is sent until ToolSearch loads it. @default true */
  defer?: boolean;
}

const DESCRIPTION = `Code intelligence from a language server (the one an editor uses): where a symbol is defined, where it is used, its type and documentation, the symbols of a file or the workspace, implementations of an interface, and who calls a function or what it calls.

Operations:
- goToDefinition, findReferences, hover, goToImplementation: the symbol at filePath, line, character
- documentSymbol: an outline of filePath (no position needed)
- workspaceSymbol: symbols named like query (or the word at line:character) across the project; filePath picks the language
- prepareCallHierarchy: the function at the position; incomingCalls: its callers and the call sites; outgoingCalls: the functions it calls

Usage:
- line and character are 1-based, as editors show them; put them on the symbol's name.
- Locations come back as path:line:column with the line's text. Results are limited by head_limit (default ${DEFAULT_LSP_HEAD_LIMIT}) after skipping offset; the result says when more exist.
- The file is read from disk before each request, so edits made since are seen.
- Prefer this to Grep for "where is X defined / used": it follows imports, overloads and renames exactly.`;

/**
 * Makes the LSP tool: one tool over nine operations, each answered by a real language server
 * started on demand (one per language per session, restarted after a crash or a hang, stopped
 * when the session closes).
 *
 * @param options The servers, the timeout, the environment.
 * @returns The tool.
 * @throws {TypeError} For a server without a command or extensions, or an extension claimed twice.
 * @throws {RangeError} For a `timeoutMs` or `startTimeoutMs` that is not a positive number.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { createLspTool } from '@toolshed/tool-lsp';
 *
 * const lsp = createLspTool({ servers: { rust: { command: 'rust-analyzer', extensions: ['.rs'] } }, timeoutMs: 10_000 });
 * const session = await createSession({ cwd: process.cwd(), tools: [lsp] });
 * ```
 */
export function createLspTool(options: LspToolOptions = {}): Tool<typeof lspInput, LspOutput> {
  const config = resolveLspConfig(options);
  return makeLspTool(options, () => config);
}

/** Servers and timeouts after merging and checking: what one session's calls use. */
export interface ResolvedLspConfig {
  servers: Record<string, LspServerConfig>;
  timeoutMs: number;
  startTimeoutMs: number;
}

/**
 * Merges `servers` over {@linkcode DEFAULT_LSP_SERVERS} (field by field per language; `false`
 * removes one) and checks them and the timeouts.
 *
 * @param options The servers and timeouts, as {@linkcode createLspTool} takes them.
 * @returns The checked configuration.
 * @throws {TypeError} For a malformed server; {RangeError} for a timeout that is not positive.
 *
 * @example
 * ```ts
 * import { resolveLspConfig } from './lsp_tool.ts';
 *
 * const config = resolveLspConfig({ servers: { python: false }, timeoutMs: 5000 });
 * console.log(Object.keys(config.servers)); // ['typescript']
 * ```
 */
export function resolveLspConfig(
  options: Pick<LspToolOptions, 'servers' | 'timeoutMs' | 'startTimeoutMs'>,
): ResolvedLspConfig {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0))
    throw new RangeError(`lspTools: timeoutMs must be a positive number, got ${JSON.stringify(options.timeoutMs)}`);
  if (typeof startTimeoutMs !== 'number' || !(startTimeoutMs > 0)) {
    throw new RangeError(
      `lspTools: startTimeoutMs must be a positive number, got ${JSON.stringify(options.startTimeoutMs)}`,
    );
  }
  const merged: Record<string, LspServerConfig> = { ...DEFAULT_LSP_SERVERS };
  for (const [name, config] of Object.entries(options.servers ?? {})) {
    if (config === false) delete merged[name];
    // Field by field over the default of the same language: `{ typescript: { command } }` keeps
    // the default's initialization options and install hint.
    else merged[name] = { ...DEFAULT_LSP_SERVERS[name], ...config } as LspServerConfig;
  }
  return { servers: checkServerConfigs(merged), timeoutMs, startTimeoutMs };
}

/**
 * The LSP tool over a configuration chosen per session (the family's settings may differ
 * from one session to the next).
 *
 * @param options Deferral and the servers' environment.
 * @param configFor The configuration of the session a call belongs to.
 * @returns The tool.
 *
 * @example
 * ```ts
 * import { makeLspTool, resolveLspConfig } from './lsp_tool.ts';
 *
 * const config = resolveLspConfig({});
 * const tool = makeLspTool({}, () => config);
 * ```
 */
export function makeLspTool(
  options: Pick<LspToolOptions, 'env' | 'defer'>,
  configFor: (sessionId: string) => ResolvedLspConfig,
): Tool<typeof lspInput, LspOutput> {
  const env = options.env ?? process.env;
  const pools = new Map<string, ServerPool>();
  const poolFor = (ctx: ToolContext): ServerPool => {
    let pool = pools.get(ctx.sessionId);
    if (!pool) {
      const { timeoutMs, startTimeoutMs } = configFor(ctx.sessionId);
      const created = new ServerPool({
        roots: ctx.permissions.workingDirectories.length ? ctx.permissions.workingDirectories : [ctx.cwd],
        timeoutMs,
        startTimeoutMs,
        // The settings files' `env` reaches the servers as it reaches the Bash tool's commands.
        env: ctx.env ? { ...env, ...ctx.env } : env,
      });
      pools.set(ctx.sessionId, created);
      ctx.onClose(async () => {
        pools.delete(ctx.sessionId);
        await created.close();
      });
      pool = created;
    }
    return pool;
  };
  const configured = (servers: Readonly<Record<string, LspServerConfig>>) =>
    Object.entries(servers)
      .map(([name, s]) => `${name}: ${s.extensions.join(' ')}`)
      .join('; ');

  return buildTool({
    name: 'LSP',
    searchHint:
      'code intelligence language server: go to definition, find references, hover type, document symbols, workspace symbols, implementation, call hierarchy callers callees',
    inputSchema: lspInput,
    shouldDefer: options.defer ?? true,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    // Nothing is changed by a call: an abort cancels the request at once.
    interruptBehavior: 'cancel',
    async description() {
      return DESCRIPTION;
    },
    getToolUseSummary: (input) =>
      `${input.operation} ${input.filePath}${input.line !== undefined ? `:${input.line}:${input.character ?? 1}` : ''}`,
    resources: (input) => [{ path: input.filePath, access: 'read' }],
    async validateInput(input, ctx) {
      const file = resolvePath(input.filePath, ctx.cwd);
      if (!NO_POSITION.includes(input.operation) && (input.line === undefined || input.character === undefined)) {
        return {
          result: false,
          message: `${input.operation} needs line and character (1-based, as editors show them) of the symbol in "${input.filePath}"; got ${input.line === undefined ? 'no line' : `line ${input.line}`} and ${input.character === undefined ? 'no character' : `character ${input.character}`}.`,
        };
      }
      if ((input.line === undefined) !== (input.character === undefined)) {
        return {
          result: false,
          message: `Give line and character together (1-based), got ${input.line === undefined ? 'only character' : 'only line'}.`,
        };
      }
      const { servers } = configFor(ctx.sessionId);
      if (!serverForFile(servers, file)) {
        return {
          result: false,
          message: `No language server is configured for "${input.filePath}" (extension "${path.extname(file) || 'none'}"). Configured: ${configured(servers) || 'none'}. Add one with lspTools({ servers: { name: { command, args, extensions } } }) or the "lsp" key of a settings file ({"lsp": {"servers": {"name": {"command": "…", "args": ["--stdio"], "extensions": [".ext"]}}}}).`,
        };
      }
      try {
        const info = await stat(file);
        if (!info.isFile())
          return { result: false, message: `"${input.filePath}" is not a file: LSP operations take a source file.` };
      } catch {
        return { result: false, message: `File does not exist: "${input.filePath}" (resolved to ${file}).` };
      }
      return { result: true };
    },
    async call(input, ctx, { signal }) {
      const file = resolvePath(input.filePath, ctx.cwd);
      const { language, config } = serverForFile(configFor(ctx.sessionId).servers, file)!;
      const pool = poolFor(ctx);
      // A project the user has not trusted: its own TypeScript is not run to answer a read.
      const server = await pool.get(
        language,
        ctx.projectTrusted === true ? config : withTrustedTypeScript(config, { roots: pool.roots, env: pool.env }),
      );
      const capability = CAPABILITIES[input.operation];
      if (!server.supports(capability)) {
        throw new Error(
          `The ${language} language server ("${server.commandLine}") does not support ${input.operation} (it announced no ${capability}); use another operation, or Grep.`,
        );
      }
      await server.sync(file);
      const text = server.openText(file) ?? (await readFile(file, 'utf8'));
      const lines = text.split(/\r?\n/);
      let position: { line: number; character: number } | undefined;
      if (input.line !== undefined && input.character !== undefined) {
        if (input.line > lines.length)
          throw new RangeError(
            `line ${input.line} is past the end of "${input.filePath}", which has ${lines.length} lines.`,
          );
        position = { line: input.line - 1, character: input.character - 1 };
      }
      const view = locationView(ctx);
      const where = position ? `${view.display(file)}:${input.line}:${input.character}` : view.display(file);
      const answer = await runOperation({ server, input, file, position, lines, where, view, signal });
      const paged = page(answer.items, input.head_limit ?? DEFAULT_LSP_HEAD_LIMIT, input.offset ?? 0);
      const parts = [answer.items.length === 0 ? answer.empty : answer.header(answer.items.length)];
      if (paged.items.length) parts.push(paged.items.join('\n'));
      else if (answer.items.length) parts.push(`No results at offset ${input.offset ?? 0}.`);
      if (answer.hidden)
        parts.push(
          `(${answer.hidden} ${answer.hidden === 1 ? 'result' : 'results'} in files the permission rules deny were left out.)`,
        );
      if (paged.more)
        parts.push(
          `[Showing results with pagination = limit: ${paged.limit}, offset: ${paged.offset}. More results exist: continue with offset=${paged.offset + paged.limit}.]`,
        );
      return {
        data: { operation: input.operation, filePath: file, resultCount: answer.items.length, text: parts.join('\n') },
      };
    },
    mapResult: (output) => output.text,
  });
}

interface Answer {
  items: string[];
  hidden: number;
  header: (n: number) => string;
  empty: string;
}

type LspInput = z.output<typeof lspInput>;

/** What one operation works with. */
interface OperationCall {
  server: LspServer;
  input: LspInput;
  /** The file asked about, absolute. */
  file: string;
  /** 0-based, when the input gave one. */
  position: { line: number; character: number } | undefined;
  /** The file's lines, as the server has them. */
  lines: readonly string[];
  /** `path:line:col` of the position, for messages. */
  where: string;
  view: LocationView;
  signal: AbortSignal;
}

async function runOperation({
  server,
  input,
  file,
  position,
  lines,
  where,
  view,
  signal,
}: OperationCall): Promise<Answer> {
  const textDocument = { uri: fileUri(file) };
  const at = { textDocument, position: position! };
  const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  switch (input.operation) {
    case 'goToDefinition':
    case 'goToImplementation': {
      const method = input.operation === 'goToDefinition' ? 'textDocument/definition' : 'textDocument/implementation';
      const found = toLocations(
        await server.request<Location | Location[] | LocationLink[] | null>(method, at, signal),
      );
      const { lines: items, hidden } = await locationLines(view, found);
      // The targets are opened, as an editor opens the file it jumps to: later edits to them
      // then reach the server as didChange, whatever its own file watching does.
      for (const target of [...new Set(found.map((l) => l.file))].slice(0, MAX_OPENED_TARGETS)) {
        if (target !== file && (await view.readable(target))) await server.open(target).catch(() => {});
      }
      const what = input.operation === 'goToDefinition' ? 'definition' : 'implementation';
      return {
        items,
        hidden,
        header: (n) => `Found ${plural(n, what)} of the symbol at ${where}:`,
        empty: `No ${what} found for the symbol at ${where}${wordNote(lines, position)}.`,
      };
    }
    case 'findReferences': {
      const found = toLocations(
        await server.request<Location[] | null>(
          'textDocument/references',
          { ...at, context: { includeDeclaration: true } },
          signal,
        ),
      );
      const { lines: items, hidden } = await locationLines(view, found);
      const files = new Set(found.map((l) => l.file)).size;
      return {
        items,
        hidden,
        header: (n) => `Found ${plural(n, 'reference')} in ${plural(files, 'file')} to the symbol at ${where}:`,
        empty: `No references found for the symbol at ${where}${wordNote(lines, position)}.`,
      };
    }
    case 'hover': {
      // A hover quotes the symbol's declaration (a literal type shows a value, a doc comment its
      // text): where the symbol is defined in a file Read is denied, it is not shown.
      if (server.supports('definitionProvider')) {
        const targets = toLocations(
          await server.request<Location | Location[] | LocationLink[] | null>('textDocument/definition', at, signal),
        );
        for (const target of targets) {
          if (target.file !== file && !(await view.listed(target.file))) {
            throw new Error(
              `The symbol at ${where} is defined in a file the permission rules deny, so its hover is not shown.`,
            );
          }
        }
      }
      const markdown = hoverMarkdown(await server.request<Hover | null>('textDocument/hover', at, signal));
      return {
        items: markdown === undefined ? [] : [markdown],
        hidden: 0,
        header: () => `Hover at ${where}:`,
        empty: `No hover information at ${where}${wordNote(lines, position)}.`,
      };
    }
    case 'documentSymbol': {
      const items = symbolOutline(
        await server.request<DocumentSymbol[] | SymbolInformation[] | null>(
          'textDocument/documentSymbol',
          { textDocument },
          signal,
        ),
      );
      return {
        items,
        hidden: 0,
        header: (n) => `${plural(n, 'symbol')} in ${where}:`,
        empty: `No symbols found in ${where}.`,
      };
    }
    case 'workspaceSymbol': {
      const query = input.query ?? (position ? wordAt(lines, position) : undefined) ?? '';
      const symbols = await server.request<SymbolInformation[] | WorkspaceSymbol[] | null>(
        'workspace/symbol',
        { query },
        signal,
      );
      const { lines: items, hidden } = await workspaceSymbolLines(view, symbols);
      return {
        items,
        hidden,
        header: (n) => `Found ${plural(n, 'symbol')} matching "${query}":`,
        empty: `No symbols matching "${query}" in the workspace${query === '' ? ' (give query, or a line and character on a name)' : ''}.`,
      };
    }
    case 'prepareCallHierarchy':
    case 'incomingCalls':
    case 'outgoingCalls': {
      const prepared =
        (await server.request<CallHierarchyItem[] | null>('textDocument/prepareCallHierarchy', at, signal)) ?? [];
      const empty = `No function or method at ${where} to build a call hierarchy from${wordNote(lines, position)}.`;
      if (input.operation === 'prepareCallHierarchy') {
        const items: string[] = [];
        let hidden = 0;
        for (const item of prepared) {
          const line = await callItemLine(view, item);
          if (line === undefined) hidden++;
          else items.push(line);
        }
        return { items, hidden, header: (n) => `${plural(n, 'call hierarchy item')} at ${where}:`, empty };
      }
      const item = prepared[0];
      if (!item) return { items: [], hidden: 0, header: () => '', empty };
      const incoming = input.operation === 'incomingCalls';
      const calls = await server.request<CallHierarchyIncomingCall[] | CallHierarchyOutgoingCall[] | null>(
        incoming ? 'callHierarchy/incomingCalls' : 'callHierarchy/outgoingCalls',
        { item },
        signal,
      );
      const { lines: items, hidden } = await callLines(view, calls);
      return {
        items,
        hidden,
        header: (n) =>
          incoming
            ? `Found ${plural(n, 'caller')} of ${item.name}:`
            : `Found ${plural(n, 'function')} called by ${item.name}:`,
        empty: incoming ? `No callers of ${item.name} found.` : `${item.name} calls no functions the server knows of.`,
      };
    }
  }
}

function wordAt(lines: readonly string[], position: { line: number; character: number }): string | undefined {
  const text = lines[position.line] ?? '';
  const isWord = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_$]/u.test(c);
  let start = position.character;
  let end = position.character;
  while (start > 0 && isWord(text[start - 1])) start--;
  while (isWord(text[end])) end++;
  return end > start ? text.slice(start, end) : undefined;
}

/** Where the position is not on a name, says so: the most common reason for an empty answer. */
function wordNote(lines: readonly string[], position: { line: number; character: number } | undefined): string {
  if (!position) return '';
  const word = wordAt(lines, position);
  if (word !== undefined) return ` (the position is on "${word}")`;
  const text = lines[position.line] ?? '';
  return ` (the position is not on a name: line ${position.line + 1} is ${JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text)}; put character on the symbol's name, 1-based)`;
}

function page(
  items: readonly string[],
  limit: number,
  offset: number,
): { items: string[]; more: boolean; limit: number; offset: number } {
  const rest = items.slice(offset);
  if (limit === 0 || rest.length <= limit) return { items: rest, more: false, limit, offset };
  return { items: rest.slice(0, limit), more: true, limit, offset };
}

/**
 * The LSP tool with the default servers (TypeScript/JavaScript through
 * `typescript-language-server`, Python through pyright) and a 30 s timeout.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { lspTool } from '@toolshed/tool-lsp';
 *
 * const session = await createSession({ cwd: process.cwd(), tools: [lspTool] });
 * await session.run([{ type: 'tool_use', id: 't1', name: 'LSP', input: { operation: 'hover', filePath: 'src/a.ts', line: 3, character: 10 } }]);
 * ```
 */
export const lspTool: Tool<typeof lspInput, LspOutput> = createLspTool();
