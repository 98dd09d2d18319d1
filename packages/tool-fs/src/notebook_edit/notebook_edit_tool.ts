import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { buildTool, type Tool, type ToolContext } from '@toolshed/core';
import { approvedRealPaths, hashContent } from '@toolshed/core/internal';
import { writeFileAtomic } from '../_atomic_write.ts';
import { checkReadFirst, recordWrite, type LineRange } from '../_freshness.ts';
import {
  findCell,
  MAX_NOTEBOOK_BYTES,
  type Notebook,
  type NotebookCell,
  notebookTooLarge,
  parseNotebook,
} from '../_notebook.ts';
import { withPathLock } from '../_path_lock.ts';
import { canonicalPath, editRuleFor, insideWorkingDirectories, missingFileMessage, toAbsolute } from '../_paths.ts';
import { decodeText, encodeText } from '../_text_file.ts';

/** Input of {@linkcode notebookEditTool}: Claude Code's fields. */
export const notebookEditInput = z.strictObject({
  notebook_path: z
    .string()
    .min(1)
    .describe('The path of the Jupyter notebook (.ipynb) to edit (absolute, or relative to the working directory)'),
  cell_id: z
    .string()
    .optional()
    .describe(
      'The id of the cell to edit (or its 0-based position as "3" / "cell-3"). For insert, the new cell goes after it; without it, at the start',
    ),
  new_source: z.string().describe('The new source of the cell (ignored for delete)'),
  cell_type: z
    .enum(['code', 'markdown'])
    .optional()
    .describe('The cell type; required for insert, optional for replace (changes the type)'),
  edit_mode: z.enum(['replace', 'insert', 'delete']).optional().describe('replace (default), insert or delete'),
});

/** What {@linkcode notebookEditTool} returns. */
export interface NotebookEditOutput {
  notebookPath: string;
  editMode: 'replace' | 'insert' | 'delete';
  cellId: string;
  cellType: string | undefined;
  /** The cell's position after the edit (for delete: where it was). */
  index: number;
  cells: number;
}

const DESCRIPTION = `Replaces, inserts or deletes one cell of a Jupyter notebook (.ipynb).

- Read the notebook first in this session; NotebookEdit refuses a notebook you have not read, or that changed on disk since.
- cell_id is the cell's id as Read shows it (<cell id="…">); a 0-based position ("3" or "cell-3") works for cells without ids.
- edit_mode "replace" (default) sets the cell's source (a code cell's outputs and execution count are cleared); cell_type changes its type.
- edit_mode "insert" adds a new cell of cell_type (required) after cell_id, or at the start when cell_id is omitted.
- edit_mode "delete" removes the cell.
- The notebook's JSON formatting and metadata are kept; the write is atomic.`;

type NotebookPlan =
  | { ok: false; message: string }
  | {
      ok: true;
      abs: string;
      key: string;
      before: Buffer;
      newText: string;
      newBytes: Buffer;
      output: NotebookEditOutput;
      seen?: LineRange;
    };

/**
 * Replaces, inserts or deletes a notebook cell by id (or position), keeping the notebook's JSON
 * formatting and metadata; read-first and staleness rules as Edit.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * declare const session: Session;
 *
 * await session.run([{ type: 'tool_use', id: 't1', name: 'NotebookEdit', input: { notebook_path: 'a.ipynb', cell_id: 'c1', new_source: 'print(2)' } }]);
 * ```
 */
export const notebookEditTool: Tool<typeof notebookEditInput, NotebookEditOutput> = buildTool<
  typeof notebookEditInput,
  NotebookEditOutput
>({
  name: 'NotebookEdit',
  searchHint: 'edit jupyter notebook cell, ipynb, insert or delete cell',
  description: DESCRIPTION,
  inputSchema: notebookEditInput,
  inputExamples: [{ notebook_path: 'analysis.ipynb', cell_id: 'a1b2c3', new_source: 'df.describe()' }],
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  isDestructive: (input) => input.edit_mode === 'delete',
  getToolUseSummary: (input) => input.notebook_path,
  permissionSuggestions: (input) => [editRuleFor(input.notebook_path)],
  resources: (input, ctx) => [{ path: toAbsolute(input.notebook_path, ctx.cwd), access: 'write' }],
  async validateInput(input, ctx) {
    if (path.extname(input.notebook_path).toLowerCase() !== '.ipynb') {
      return {
        result: false,
        message: `${input.notebook_path} is not a Jupyter notebook (.ipynb). Use Edit for other files.`,
      };
    }
    const plan = await planNotebookEdit(input, ctx);
    return plan.ok ? { result: true } : { result: false, message: plan.message };
  },
  mapResult(output) {
    if (output.editMode === 'delete')
      return `Deleted cell ${output.cellId} (it was at position ${output.index}); the notebook has ${output.cells} cells now.`;
    if (output.editMode === 'insert')
      return `Inserted ${output.cellType} cell ${output.cellId} at position ${output.index}; the notebook has ${output.cells} cells now.`;
    return `Updated cell ${output.cellId} (position ${output.index}, ${output.cellType}).`;
  },
  async call(input, ctx) {
    const key = await canonicalPath(toAbsolute(input.notebook_path, ctx.cwd));
    return withPathLock(key, async () => {
      const plan = await planNotebookEdit(input, ctx);
      if (!plan.ok) throw new Error(plan.message.split('\n')[0]);
      // Where the permission check found the file: a link moved since must not move the write.
      const allowedTargets = approvedRealPaths(ctx, { path: plan.abs, access: 'write' });
      const written = await writeFileAtomic(plan.abs, plan.newBytes, {
        expectHash: hashContent(plan.before),
        allowedTargets,
      });
      recordWrite(ctx.fileState, plan.key, {
        bytes: plan.newBytes,
        text: plan.newText,
        st: await stat(written),
        seen: plan.seen,
      });
      return { data: plan.output };
    });
  },
});

async function planNotebookEdit(input: z.output<typeof notebookEditInput>, ctx: ToolContext): Promise<NotebookPlan> {
  const abs = toAbsolute(input.notebook_path, ctx.cwd);
  const fail = (message: string): NotebookPlan => ({ ok: false, message });
  const key = await canonicalPath(abs);
  let st: Stats;
  try {
    st = await stat(abs);
  } catch {
    return fail(await missingFileMessage(abs, ctx.cwd, { listNear: await insideWorkingDirectories(abs, ctx), ctx }));
  }
  if (!st.isFile()) return fail(`${abs} is not a regular file.`);
  if (st.size > MAX_NOTEBOOK_BYTES) return fail(notebookTooLarge(abs, st.size));
  const before = await readFile(abs);
  const fresh = checkReadFirst(ctx.fileState, key, { bytes: before, st });
  if (!fresh.ok) return fail(fresh.message.replace('then make the change', 'then edit the notebook'));
  const { text, format } = decodeText(before);
  let nb: Notebook;
  try {
    nb = parseNotebook(text, abs);
  } catch (e) {
    return fail((e as Error).message);
  }
  const mode = input.edit_mode ?? 'replace';
  let index = -1;
  if (input.cell_id !== undefined) {
    index = findCell(nb, input.cell_id);
    if (index === -1) {
      const ids = nb.cells
        .slice(0, 20)
        .map((c, i) => c.id ?? `cell-${i}`)
        .join(', ');
      return fail(
        `Cell "${input.cell_id}" is not in ${abs}. Its cells are: ${ids || '(none)'}${nb.cells.length > 20 ? ', …' : ''}.`,
      );
    }
  } else if (mode !== 'insert') {
    return fail(`cell_id is required to ${mode} a cell; Read the notebook to see the cell ids.`);
  }
  // After a Read of some cells only (offset/limit count cells for notebooks), only those may change.
  let seen: LineRange | undefined;
  if (fresh.partial) {
    const from = fresh.entry.offset ?? 1;
    const to = from + (fresh.entry.limit ?? 0) - 1;
    if (index !== -1 && (index + 1 < from || index + 1 > to)) {
      return fail(
        `You have read only cells ${from}-${to} of ${abs}, and cell "${input.cell_id}" is cell ${index + 1}. Read it first (Read with offset=${index + 1}), then edit it.`,
      );
    }
    const delta = mode === 'insert' ? 1 : mode === 'delete' ? -1 : 0;
    seen = index === -1 && from > 1 ? { from: from + 1, to: to + 1 } : { from, to: Math.max(from - 1, to + delta) };
  }
  const withIds = (nb.nbformat ?? 4) > 4 || ((nb.nbformat ?? 4) === 4 && (nb.nbformat_minor ?? 0) >= 5);
  let output: NotebookEditOutput;
  if (mode === 'delete') {
    const [removed] = nb.cells.splice(index, 1);
    output = {
      notebookPath: abs,
      editMode: mode,
      cellId: removed!.id ?? `cell-${index}`,
      cellType: removed!.cell_type,
      index,
      cells: nb.cells.length,
    };
  } else if (mode === 'insert') {
    if (!input.cell_type) return fail('cell_type ("code" or "markdown") is required to insert a cell.');
    // Keys in sorted order, as nbformat writes them.
    const cell: NotebookCell =
      input.cell_type === 'code'
        ? {
            cell_type: 'code',
            execution_count: null,
            ...(withIds ? { id: newCellId(nb) } : {}),
            metadata: {},
            outputs: [],
            source: toSource(input.new_source, undefined),
          }
        : {
            cell_type: 'markdown',
            ...(withIds ? { id: newCellId(nb) } : {}),
            metadata: {},
            source: toSource(input.new_source, undefined),
          };
    const at = index + 1;
    nb.cells.splice(at, 0, cell);
    output = {
      notebookPath: abs,
      editMode: mode,
      cellId: cell.id ?? `cell-${at}`,
      cellType: cell.cell_type,
      index: at,
      cells: nb.cells.length,
    };
  } else {
    const cell = nb.cells[index]!;
    cell.source = toSource(input.new_source, cell.source);
    if (input.cell_type && input.cell_type !== cell.cell_type) {
      cell.cell_type = input.cell_type;
      if (input.cell_type === 'markdown') {
        delete cell.outputs;
        delete cell.execution_count;
      } else {
        cell.outputs = [];
        cell.execution_count = null;
      }
    } else if (cell.cell_type === 'code') {
      cell.outputs = [];
      cell.execution_count = null;
    }
    output = {
      notebookPath: abs,
      editMode: 'replace',
      cellId: cell.id ?? `cell-${index}`,
      cellType: cell.cell_type,
      index,
      cells: nb.cells.length,
    };
  }
  const newText = serializeLike(nb, text);
  return {
    ok: true,
    abs,
    key,
    before,
    newText,
    newBytes: encodeText(newText, format),
    output,
    ...(seen ? { seen } : {}),
  };
}

/** nbformat stores source as a list of lines (each but the last ending in `\n`); keep the cell's form. */
function toSource(source: string, like: string | string[] | undefined): string | string[] {
  if (typeof like === 'string') return source;
  return source.split(/(?<=\n)/).filter((l) => l !== '');
}

function newCellId(nb: Notebook): string {
  const taken = new Set(nb.cells.map((c) => c.id));
  for (;;) {
    const id = randomBytes(4).toString('hex');
    if (!taken.has(id)) return id;
  }
}

/** JSON with the original's indentation (Jupyter writes one space), line endings and final newline. */
function serializeLike(nb: Notebook, original: string): string {
  const indentMatch = /^\{\r?\n([ \t]+)"/.exec(original);
  const indent = indentMatch ? indentMatch[1]! : original.trimStart().startsWith('{\n') ? 1 : 0;
  let out = JSON.stringify(nb, null, indent);
  if (original.includes('\r\n')) out = out.replace(/\n/g, '\r\n');
  if (/\r?\n$/.test(original)) out += original.endsWith('\r\n') ? '\r\n' : '\n';
  return out;
}
