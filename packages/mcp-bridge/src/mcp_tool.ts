import {
  buildTool,
  contentToText,
  type JsonSchema,
  type PermissionResult,
  type ResourceAccess,
  type Tool,
  type ToolCallResult,
  type ToolResultContent,
} from '@toolshed/core';
import type { McpConnection } from './_server_connection.ts';
import type { McpToolInfo } from './_tool_list.ts';
import { jsonSchemaValidator, outputSchemaValidator, passthroughObjectSchema } from './_json_input.ts';
import { mapCallResult, type McpCallResult } from './map_call_result.ts';

/** Descriptions longer than this are cut: some servers ship whole manuals in them. */
export const MAX_MCP_DESCRIPTION_CHARS = 2048;

/** What {@linkcode buildMcpTool} takes besides the tool. */
export interface BuildMcpToolOptions {
  /** The Toolshed name, from `mcpToolName` (made unique by the caller). */
  name: string;
  /** Told when the server's schema cannot be compiled (the server then checks the input itself). */
  onSchemaProblem?: (message: string) => void;
  /** Told the call's working directories (cwd first) before each call, so roots can follow them. */
  onWorkingDirectories?: (dirs: readonly string[]) => void;
}

/**
 * Wraps one tool of an MCP server as a Toolshed {@linkcode Tool}: the server's JSON Schema sent
 * as is and enforced before the call with a JSON Schema validator, annotations mapped to the
 * flags (`readOnlyHint` → read-only and concurrency-safe, `destructiveHint` → destructive: they
 * decide concurrency and display; a read-only tool is allowed without asking only when the
 * server's config says `trust: "readOnlyHint"`, else a rule must allow it), the config's
 * `pathArguments` declared as paths to the path guard,
 * progress, cancellation and the per-call timeout passed to the server, and an `isError`
 * result kept whole (text, images) as an `is_error` result.
 *
 * @param connection The server the tool belongs to.
 * @param info The tool as the server lists it.
 * @param options Its Toolshed name.
 * @returns The tool, with `isMcp: true`.
 *
 * @example
 * ```ts
 * import { buildMcpTool } from '@toolshed/mcp-bridge';
 * import type { McpConnection } from './_server_connection.ts';
 * declare const connection: McpConnection;
 *
 * const tool = buildMcpTool(connection, { name: 'echo', inputSchema: { type: 'object' } }, { name: 'mcp__everything__echo' });
 * ```
 */
export function buildMcpTool(connection: McpConnection, info: McpToolInfo, options: BuildMcpToolOptions): Tool {
  const server = connection.name;
  const schema: JsonSchema =
    info.inputSchema && typeof info.inputSchema === 'object' ? info.inputSchema : { type: 'object' };
  // Compiled on the first call, not when the server's list arrives: a server with thousands of
  // tools would otherwise spend its connection compiling schemas most of which are never used.
  let compiled: ReturnType<typeof jsonSchemaValidator> | undefined;
  const validator = () => {
    if (compiled) return compiled;
    compiled = jsonSchemaValidator(options.name, schema);
    if ('error' in compiled) {
      options.onSchemaProblem?.(
        `The input schema of ${options.name} (tool "${info.name}" of MCP server "${server}") does not compile (${compiled.error}); its inputs are checked by the server only.`,
      );
    }
    return compiled;
  };
  // The result's structuredContent is checked against the tool's outputSchema (compiled on the
  // first result): a mismatch is an error result naming each field, not data the model trusts.
  let output: ReturnType<typeof outputSchemaValidator> | undefined;
  const checkOutput = (structured: unknown): string | undefined => {
    output ??= outputSchemaValidator(info.outputSchema!);
    const where = `tool "${info.name}" of MCP server "${server}"`;
    if ('error' in output) return undefined;
    if (structured === undefined)
      return `The result of ${where} has no structuredContent, though the tool declares an outputSchema; the server broke its own contract, so its result is not used.`;
    const problems = output.check(structured);
    if (problems.length === 0) return undefined;
    return `The result of ${where} does not match the tool's outputSchema: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}. The server broke its own contract, so its result is not used.`;
  };
  // What a call gives the pipeline of the server's result.
  const outputOf = (result: McpCallResult): ToolCallResult<ToolResultContent> => {
    if (!result.isError && info.outputSchema) {
      const mismatch = checkOutput(result.structuredContent);
      if (mismatch) return { data: mismatch, isError: true };
    }
    const content = mapCallResult(result, server);
    if (!result.isError) return { data: content };
    // The server's own words, images and all, reach the model as an is_error result (and
    // PostToolUseFailure hooks run); only an empty error gets a line of its own.
    const empty = typeof content === 'string' ? content.trim() === '' : content.length === 0;
    return {
      data: empty ? `MCP server "${server}" reported an error from "${info.name}" without a message.` : content,
      isError: true,
    };
  };
  const annotations = info.annotations ?? {};
  // The server's own claims: they decide concurrency and how a call is shown. They decide
  // permission only where the user trusts them (`trust: "readOnlyHint"` in the config).
  const readOnly = annotations.readOnlyHint === true;
  const trusted = readOnly && connection.config.trust === 'readOnlyHint';
  const destructive = annotations.destructiveHint === true;
  const pathArguments = connection.config.pathArguments ?? [];
  const title = info.title ?? annotations.title;
  // What checkPermissions says of a call whose path arguments are paths: the same for every call,
  // so made once. Core never allows an MCP tool for being read-only: only a rule, or this trust, does.
  const verdict: PermissionResult = Object.freeze(
    trusted
      ? {
          behavior: 'allow',
          reason: `MCP server "${server}" says this tool only reads (readOnlyHint), and its config trusts that`,
        }
      : readOnly
        ? {
            behavior: 'passthrough',
            message: `MCP server "${server}" says this tool only reads (readOnlyHint), but a server's own claim does not decide permission; allow it with a rule, or set "trust": "readOnlyHint" for the server in the MCP config`,
          }
        : { behavior: 'passthrough' },
  );
  return buildTool({
    name: options.name,
    description: describeTool(info, server),
    searchHint: `${server} ${info.name.replace(/[_.-]+/g, ' ')}${title ? ` ${title}` : ''}`,
    searchGroup: `mcp:${server}`,
    inputSchema: passthroughObjectSchema,
    inputJSONSchema: schema,
    isMcp: true,
    // The server runs the call; an abort is sent to it as an MCP cancellation and not waited for.
    interruptBehavior: 'cancel',
    isReadOnly: () => readOnly,
    isConcurrencySafe: () => readOnly,
    resources: (input) => pathResources(input, pathArguments, trusted),
    checkPermissions: (input) => {
      const bad = pathArguments.find((key) => !isPathValue((input as Record<string, unknown>)[key]));
      if (bad !== undefined) {
        return {
          behavior: 'ask',
          message: `argument "${bad}" of ${options.name} is a path argument (pathArguments of MCP server "${server}"), but its value is not a path or a list of paths, so the path rules cannot check it`,
        };
      }
      return verdict;
    },
    isDestructive: () => destructive,
    validateInput: (input) => {
      const v = validator();
      return 'validate' in v ? v.validate(input) : { result: true };
    },
    userFacingName: () => `${server} - ${title ?? info.name} (MCP)`,
    // One rule, for this tool: the suggestions are added together ("always"), and the server-wide
    // `mcp__server` would allow every tool the server has or will have.
    permissionSuggestions: () => [options.name],
    mapResult: (output: ToolResultContent) => output,
    renderResult: (output: ToolResultContent) => contentToText(output),
    call(input, ctx, { signal, onProgress }) {
      options.onWorkingDirectories?.([ctx.cwd, ...ctx.permissions.workingDirectories]);
      // A continuation rather than an async function: one step less per call.
      return connection
        .callTool(info.name, input, {
          signal,
          toolName: options.name,
          // A tool that must run as a task (2025-11-25) is called as one; others are called plainly.
          task: info.execution?.taskSupport === 'required',
          onProgress: (p) =>
            onProgress({
              message: p.message ?? (p.total !== undefined ? `${p.progress}/${p.total}` : `${p.progress}`),
              progress: p.progress,
              ...(p.total !== undefined ? { total: p.total } : {}),
            }),
        })
        .then(outputOf);
    },
  });
}

/**
 * The paths a call names in its path arguments: reads when the (trusted) tool only reads, else
 * reads and writes, so that both `Read(...)` and `Edit(...)` rules see them.
 */
function pathResources(input: unknown, keys: readonly string[], readOnly: boolean): ResourceAccess[] {
  const out: ResourceAccess[] = [];
  for (const key of keys) {
    const value = (input as Record<string, unknown> | undefined)?.[key];
    const paths =
      typeof value === 'string'
        ? [value]
        : Array.isArray(value)
          ? value.filter((v): v is string => typeof v === 'string')
          : [];
    for (const path of paths) {
      out.push({ path, access: 'read' });
      if (!readOnly) out.push({ path, access: 'write' });
    }
  }
  return out;
}

function isPathValue(value: unknown): boolean {
  return (
    value === undefined ||
    (typeof value === 'string' && value !== '') ||
    (Array.isArray(value) && value.every((v) => typeof v === 'string' && v !== ''))
  );
}

function describeTool(info: McpToolInfo, server: string): string {
  let text = (info.description ?? '').trim();
  if (text.length < 10) text = `${text ? `${text}. ` : ''}Tool "${info.name}" of MCP server "${server}".`;
  if (text.length > MAX_MCP_DESCRIPTION_CHARS)
    text = `${text.slice(0, MAX_MCP_DESCRIPTION_CHARS - 16).trimEnd()}… [truncated]`;
  return text;
}
