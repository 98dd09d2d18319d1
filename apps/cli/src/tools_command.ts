import type { AnyTool, CatalogEntry } from '@toolshed/core';
import { toolInputJsonSchema } from '@toolshed/core/internal';
import type { CommandInvocation } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { sampleInput } from './_sample_input.ts';
import { isSetupHint } from './_setup_hints.ts';
import { withSession } from './session_from_args.ts';

/** One row of `toolshed tools --json`. */
export interface ToolRow {
  name: string;
  family: string;
  /** For the input `{}`; null when `{}` is not a valid input (the flag varies by input) or the tool is not loaded. */
  readOnly: boolean | null;
  /** Like `readOnly`. */
  concurrencySafe: boolean | null;
  deferred: boolean;
  description: string;
}

/**
 * `toolshed tools [--json]`: the pool — name, family, read-only, concurrency-safe, deferred.
 * Read-only and concurrency-safe are per input; they are computed for `{}` when it parses, and
 * in the table otherwise for a plain input built from the tool's schema (each required field the
 * simplest value of its type), so the table says yes or no. ToolSearch is left out of the table
 * when no tool is deferred. Setup hints (WebSearch without a backend) are shown here only.
 *
 * @param invocation The flags (no positionals).
 * @param io The CLI's streams.
 * @returns The exit code, 0.
 *
 * @example
 * ```ts
 * import { toolsCommand, type CliIo, type CommonArgs } from '@toolshed/cli';
 * declare const args: CommonArgs;
 * declare const io: CliIo;
 *
 * await toolsCommand({ positionals: [], args }, io); // prints the table
 * ```
 */
export async function toolsCommand(invocation: CommandInvocation, io: CliIo): Promise<number> {
  const { args } = invocation;
  return withSession(args, io, {
    run: async (session) => {
      const rows = session.catalog().map(toolRow);
      if (args.json) {
        for (const hint of session.notices().filter(isSetupHint))
          io.stderr.write(`toolshed: ${hint.level}: ${hint.message}\n`);
        io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return 0;
      }
      if (rows.length === 0) {
        io.stdout.write(`No tools: the families loaded (${args.families.join(', ')}) have none yet.\n`);
        return 0;
      }
      const catalog = session.catalog();
      // ToolSearch only matters when some tool is deferred.
      const anyDeferred = catalog.some((e) => e.deferred);
      const shown = catalog.filter((e) => anyDeferred || e.name !== 'ToolSearch');
      const unloaded = shown.some((e) => !e.tool);
      const tableRows = shown.map(tableRow);
      io.stdout.write(formatTable(tableRows, shown));
      if (unloaded) io.stdout.write("\n? = the tool's family is loaded lazily and not imported yet.\n");
      // Setup hints (WebSearch without a backend) are shown here, once, and by no other command.
      const hints = session.notices().filter(isSetupHint);
      if (hints.length > 0) io.stdout.write(`\n${hints.map((h) => h.message).join('\n')}\n`);
      return 0;
    },
  });
}

/**
 * The row of one catalog entry.
 *
 * @param entry An entry of `session.catalog()`.
 * @returns The row, flags computed for the input `{}`.
 *
 * @example
 * ```ts
 * import { toolRow } from '@toolshed/cli';
 * import type { Session } from '@toolshed/core';
 * declare const session: Session;
 *
 * session.catalog().map(toolRow);
 * ```
 */
export function toolRow(entry: CatalogEntry): ToolRow {
  const { readOnly, concurrencySafe } = flagsForEmptyInput(entry.tool);
  return {
    name: entry.name,
    family: entry.family,
    readOnly,
    concurrencySafe,
    deferred: entry.deferred,
    description: entry.description,
  };
}

/** The table's row: flags for `{}`, or else for a plain input built from the tool's schema. */
function tableRow(entry: CatalogEntry): ToolRow {
  const row = toolRow(entry);
  if (!entry.tool || (row.readOnly !== null && row.concurrencySafe !== null)) return row;
  let schema: unknown;
  try {
    schema = toolInputJsonSchema(entry.tool);
  } catch {
    return row; // a schema JSON cannot express: the flags stay "varies"
  }
  const flags = flagsFor(entry.tool, sampleInput(schema));
  const tool = entry.tool;
  // A flag function that takes no input cannot depend on it (`() => true`): its value holds for every input.
  const constant = (fn: (input: never) => boolean) => (fn.length === 0 ? flag(() => fn(undefined as never)) : null);
  return {
    ...row,
    readOnly: row.readOnly ?? flags.readOnly ?? constant(tool.isReadOnly),
    concurrencySafe: row.concurrencySafe ?? flags.concurrencySafe ?? constant(tool.isConcurrencySafe),
  };
}

function flagsForEmptyInput(tool: AnyTool | undefined): { readOnly: boolean | null; concurrencySafe: boolean | null } {
  return flagsFor(tool, {});
}

function flagsFor(
  tool: AnyTool | undefined,
  input: Record<string, unknown>,
): { readOnly: boolean | null; concurrencySafe: boolean | null } {
  const none = { readOnly: null, concurrencySafe: null };
  if (!tool) return none;
  let parsed;
  try {
    parsed = tool.inputSchema.safeParse(input);
  } catch {
    return none;
  }
  if (!parsed.success) return none;
  return {
    readOnly: flag(() => tool.isReadOnly(parsed.data)),
    concurrencySafe: flag(() => tool.isConcurrencySafe(parsed.data)),
  };
}

function flag(fn: () => unknown): boolean | null {
  try {
    const value = fn();
    return typeof value === 'boolean' ? value : null;
  } catch {
    return null; // a flag function that throws on {} needs a real input to answer
  }
}

function formatTable(rows: readonly ToolRow[], entries: readonly CatalogEntry[]): string {
  const loaded = new Set(entries.filter((e) => e.tool).map((e) => e.name));
  const yesNo = (row: ToolRow, value: boolean | null) =>
    value === null ? (loaded.has(row.name) ? 'varies' : '?') : value ? 'yes' : 'no';
  const header = ['NAME', 'FAMILY', 'READ-ONLY', 'CONCURRENCY-SAFE', 'DEFERRED', 'DESCRIPTION'];
  const cells = rows.map((r) => [
    r.name,
    r.family,
    yesNo(r, r.readOnly),
    yesNo(r, r.concurrencySafe),
    r.deferred ? 'yes' : 'no',
    firstLine(r.description),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) =>
    c
      .map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...cells.map(line)].join('\n') + '\n';
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]!.trim();
  return line.length > 72 ? `${line.slice(0, 71)}…` : line;
}
