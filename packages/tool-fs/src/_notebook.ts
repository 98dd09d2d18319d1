import type { ContentBlock, ImageBlock } from '@toolshed/core';

/**
 * The largest notebook Read and NotebookEdit open: a notebook is parsed whole (its bytes, its
 * text and the parsed cells are all in memory at once), so a larger one is refused before it is
 * read. Outputs (plots, long logs) are what makes a notebook this large.
 *
 * @example
 * ```ts
 * import { MAX_NOTEBOOK_BYTES } from './_notebook.ts';
 *
 * MAX_NOTEBOOK_BYTES / 2 ** 20; // 64 (MiB)
 * ```
 */
export const MAX_NOTEBOOK_BYTES = 64 * 1024 * 1024;

/**
 * Why a notebook over {@linkcode MAX_NOTEBOOK_BYTES} is refused, and how to get at its cells instead.
 *
 * @param file The notebook's absolute path.
 * @param bytes Its size.
 * @returns The message.
 *
 * @example
 * ```ts
 * import { notebookTooLarge } from './_notebook.ts';
 *
 * notebookTooLarge('/repo/a.ipynb', 100 * 2 ** 20); // 'The notebook /repo/a.ipynb is 100.0 MB; …'
 * ```
 */
export function notebookTooLarge(file: string, bytes: number): string {
  const q = JSON.stringify(file);
  return `The notebook ${file} is ${(bytes / 2 ** 20).toFixed(1)} MB; Read and NotebookEdit parse a notebook whole and take notebooks up to ${MAX_NOTEBOOK_BYTES / 2 ** 20} MB. Its outputs are most likely what makes it large: read a cell's source with jq through Bash (jq -r '.cells[0].source | join("")' ${q}), or make a copy without outputs (jupyter nbconvert --clear-output --to notebook --output small.ipynb ${q}) and read that.`;
}

/** One cell of a Jupyter notebook (nbformat 4), as far as the file tools look at it. */
export interface NotebookCell {
  cell_type: 'code' | 'markdown' | 'raw' | string;
  id?: string;
  source: string | string[];
  metadata?: Record<string, unknown>;
  outputs?: NotebookOutput[];
  execution_count?: number | null;
  [key: string]: unknown;
}

/** One output of a code cell. */
export interface NotebookOutput {
  output_type: 'stream' | 'execute_result' | 'display_data' | 'error' | string;
  text?: string | string[];
  data?: Record<string, string | string[] | unknown>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
  [key: string]: unknown;
}

/** A notebook file's JSON. */
export interface Notebook {
  cells: NotebookCell[];
  metadata?: Record<string, unknown>;
  nbformat?: number;
  nbformat_minor?: number;
  [key: string]: unknown;
}

/**
 * Parses a notebook's text.
 *
 * @param text The file's text.
 * @param file The path, for messages.
 * @returns The notebook.
 * @throws {SyntaxError} When the text is not JSON or has no `cells` list (the message names the file).
 *
 * @example
 * ```ts
 * import { parseNotebook } from './_notebook.ts';
 *
 * parseNotebook('{"cells":[],"metadata":{},"nbformat":4,"nbformat_minor":5}', 'a.ipynb').cells; // []
 * ```
 */
export function parseNotebook(text: string, file: string): Notebook {
  let nb: unknown;
  try {
    nb = JSON.parse(text);
  } catch (e) {
    throw new SyntaxError(`${file} is not a valid notebook: its JSON does not parse (${(e as Error).message}).`);
  }
  if (!nb || typeof nb !== 'object' || !Array.isArray((nb as Notebook).cells)) {
    throw new SyntaxError(`${file} is not a valid notebook: it has no "cells" list.`);
  }
  return nb as Notebook;
}

/**
 * The text of a `source` or `text` field, which nbformat allows as a string or a list of lines.
 *
 * @param value The field.
 * @returns The joined text.
 *
 * @example
 * ```ts
 * import { joinSource } from './_notebook.ts';
 *
 * joinSource(['a\n', 'b']); // 'a\nb'
 * ```
 */
export function joinSource(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => String(v)).join('');
  return '';
}

/**
 * Finds a cell by its `id`, or by position (`"3"` or `"cell-3"`, 0-based) for notebooks whose
 * cells have no ids.
 *
 * @param nb The notebook.
 * @param cellId The id or position.
 * @returns The index, or -1.
 *
 * @example
 * ```ts
 * import { type Notebook, findCell } from './_notebook.ts';
 * declare const nb: Notebook;
 *
 * findCell(nb, 'cell-0'); // 0
 * ```
 */
export function findCell(nb: Notebook, cellId: string): number {
  const byId = nb.cells.findIndex((c) => c.id === cellId);
  if (byId !== -1) return byId;
  const m = /^(?:cell-)?(\d+)$/.exec(cellId);
  if (m) {
    const index = Number(m[1]);
    if (index < nb.cells.length) return index;
  }
  return -1;
}

// ANSI colour codes in tracebacks.
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
const MAX_OUTPUT_CHARS = 10_000;

/** Options of {@linkcode renderNotebook}. */
export interface RenderNotebookOptions {
  /** The first cell to show, 0-based. @default 0 */
  start?: number;
  /** How many cells to show at most. @default all */
  limit?: number;
  /** Characters of text (sources and outputs) after which no further cell is shown; the first cell always is. @default Infinity */
  maxChars?: number;
}

/**
 * Renders a notebook for Read: each cell with its id, type and source, then its outputs as text,
 * and images in outputs as image blocks.
 *
 * @param nb The notebook.
 * @param options Which cells, and the cap on their text.
 * @returns The content blocks and how many cells they show.
 *
 * @example
 * ```ts
 * import { type Notebook, renderNotebook } from './_notebook.ts';
 * declare const nb: Notebook;
 *
 * renderNotebook(nb).blocks[0]; // { type: 'text', text: '<cell id="a1" type="code" index="0">\nprint(1)\n</cell>…' }
 * ```
 */
export function renderNotebook(
  nb: Notebook,
  options: RenderNotebookOptions = {},
): { blocks: ContentBlock[]; shown: number } {
  const start = options.start ?? 0;
  const end = Math.min(nb.cells.length, start + (options.limit ?? nb.cells.length));
  const maxChars = options.maxChars ?? Infinity;
  const blocks: ContentBlock[] = [];
  let text = '';
  let chars = 0;
  let shown = 0;
  const flush = () => {
    if (text) blocks.push({ type: 'text', text });
    text = '';
  };
  for (let index = start; index < end; index++) {
    const cell = nb.cells[index]!;
    const id = cell.id ?? `cell-${index}`;
    let part = `<cell id="${id}" type="${cell.cell_type}" index="${index}">\n${joinSource(cell.source)}\n</cell>\n`;
    const images: ImageBlock[] = [];
    for (const output of cell.outputs ?? []) {
      const rendered = outputText(output);
      if (rendered) part += `<output of="${id}">\n${clip(rendered)}\n</output>\n`;
      const image = outputImage(output);
      if (image) images.push(image);
    }
    if (shown > 0 && chars + part.length > maxChars) break;
    chars += part.length;
    shown++;
    text += part;
    if (images.length > 0) {
      flush();
      blocks.push(...images);
    }
  }
  flush();
  if (blocks.length === 0)
    blocks.push({
      type: 'text',
      text: nb.cells.length === 0 ? '(the notebook has no cells)' : '(no cells in the range asked for)',
    });
  return { blocks, shown };
}

function outputText(output: NotebookOutput): string {
  if (output.output_type === 'stream') return joinSource(output.text);
  if (output.output_type === 'error') {
    const trace = (output.traceback ?? []).join('\n').replace(ANSI, '');
    return `${output.ename ?? 'Error'}: ${output.evalue ?? ''}${trace ? `\n${trace}` : ''}`;
  }
  const data = output.data ?? {};
  if ('text/plain' in data) return joinSource(data['text/plain']);
  if ('text/markdown' in data) return joinSource(data['text/markdown']);
  return '';
}

function outputImage(output: NotebookOutput): ImageBlock | undefined {
  const data = output.data ?? {};
  for (const mediaType of ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const) {
    const value = data[mediaType];
    if (value !== undefined)
      return {
        type: 'image',
        source: { type: 'base64', media_type: mediaType, data: joinSource(value).replace(/\s+/g, '') },
      };
  }
  return undefined;
}

function clip(text: string): string {
  return text.length <= MAX_OUTPUT_CHARS
    ? text
    : `${text.slice(0, MAX_OUTPUT_CHARS)}\n… [output truncated: ${text.length} characters]`;
}
