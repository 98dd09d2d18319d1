import { constants, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { buildTool, type ContentBlock, type Tool, type ToolContext } from '@toolshed/core';
import { hashContent } from '@toolshed/core/internal';
import { canonicalPath, deviceByName, missingFileMessage, specialKind, toAbsolute } from '../_paths.ts';
import { MAX_NOTEBOOK_BYTES, notebookTooLarge, parseNotebook, renderNotebook } from '../_notebook.ts';
import { decodeText } from '../_text_file.ts';
import { isRepeatRead, readTicket, recordRead } from '../_freshness.ts';
import { assertOpenedAsApproved } from '../_opened_file.ts';
import { DEFAULT_READ_LINES, MAX_LINE_CHARS, MAX_READ_OUTPUT_CHARS, numberLines, readTextRange } from './_text.ts';
import { IMAGE_EXTENSIONS, MAX_IMAGE_BYTES, sniffImage } from './_image.ts';
import { capPdfPages, extractPdfText, MAX_PDF_BYTES, MAX_PDF_PAGES_PER_READ, type PdfPage } from './_pdf.ts';

/** Input of {@linkcode readTool}: Claude Code's fields, plus `pages` for PDFs. */
export const readInput = z.strictObject({
  file_path: z
    .string()
    .min(1)
    .describe('The path of the file to read (absolute, or relative to the working directory)'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('The line number to start reading from (1-based). Only give it for files too large to read at once'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('The number of lines to read. Only give it for files too large to read at once'),
  pages: z
    .string()
    .optional()
    .describe(`For PDFs: the pages to read, such as "1-5" or "3" (at most ${MAX_PDF_PAGES_PER_READ} per call)`),
});

/** What {@linkcode readTool} returns. */
export type ReadOutput =
  | {
      type: 'text';
      filePath: string;
      /** The numbered lines (`cat -n` style). */
      content: string;
      startLine: number;
      numLines: number;
      totalLines: number;
      /** Why not all of the file was shown, and how to see the rest. */
      notice?: string;
    }
  | { type: 'unchanged'; filePath: string; startLine: number; numLines: number }
  | { type: 'empty'; filePath: string }
  | { type: 'past_end'; filePath: string; offset: number; totalLines: number }
  | {
      type: 'image';
      filePath: string;
      mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
      base64: string;
      bytes: number;
    }
  | {
      type: 'notebook';
      filePath: string;
      /** Cells in the notebook. */
      cells: number;
      blocks: ContentBlock[];
      /** The first cell shown (1-based) and how many, when not all of them. */
      startCell?: number;
      shownCells?: number;
      notice?: string;
    }
  | { type: 'pdf'; filePath: string; pages: PdfPage[]; totalPages: number; notice?: string };

const DESCRIPTION = `Reads a file from the local filesystem.

- file_path may be absolute or relative to the working directory.
- By default it reads up to ${DEFAULT_READ_LINES} lines from the start of the file. For long files, page with offset (the 1-based line to start at) and limit (how many lines); otherwise read the whole file.
- Lines longer than ${MAX_LINE_CHARS} characters are cut; one call returns at most about ${MAX_READ_OUTPUT_CHARS / 4} tokens, and says where to continue when it stops early.
- Results are numbered like \`cat -n\`: the line number, a tab, then the line. The number and tab are not part of the file — never include them in an Edit's old_string.
- Images (png, jpeg, gif, webp) are returned as images you can see. PDFs are returned as text page by page (use pages, e.g. "1-5", at most ${MAX_PDF_PAGES_PER_READ} pages a call). Jupyter notebooks (.ipynb) are returned as cells with their outputs (for notebooks, offset and limit count cells).
- It reads files, not folders: to list a folder use Glob (or ls through Bash). Binary files and device files (/dev/*, FIFOs, sockets) are refused.
- Reading a file you already read, unchanged, returns a short "unchanged" note instead of the content again.
- Read a file before you Edit or Write it. You may call several Reads in one turn; they run in parallel.`;

/**
 * Reads a text file as numbered lines, an image as an image block, a PDF as text by page and a
 * notebook as cells with outputs; refuses folders, binary and device files with their own
 * errors, and answers a repeated read of an unchanged range with a short stub.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { fileTools } from '@toolshed/tool-fs';
 * const cwd = process.cwd();
 *
 * const session = await createSession({ cwd, families: [fileTools()] });
 * const [result] = await session.run([{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'src/a.ts' } }]);
 * ```
 */
export const readTool: Tool<typeof readInput, ReadOutput> = buildTool<typeof readInput, ReadOutput>({
  name: 'Read',
  searchHint: 'read a file, view file contents, image, pdf, notebook',
  description: DESCRIPTION,
  inputSchema: readInput,
  inputExamples: [{ file_path: 'src/main.ts' }, { file_path: 'logs/app.log', offset: 2001, limit: 500 }],
  maxResultSizeChars: Infinity,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  getToolUseSummary: (input) => input.file_path,
  resources: (input, ctx) => [{ path: toAbsolute(input.file_path, ctx.cwd), access: 'read' }],
  async validateInput(input, ctx) {
    const abs = toAbsolute(input.file_path, ctx.cwd);
    const device = deviceByName(abs);
    if (device)
      return {
        result: false,
        message: `Cannot read ${abs}: it is ${device}, which would block or never end. Read reads regular files only.`,
      };
    return { result: true };
  },
  mapResult: mapReadResult,
  renderResult(output) {
    switch (output.type) {
      case 'text':
        return `Read ${output.numLines} line${output.numLines === 1 ? '' : 's'} of ${output.filePath}`;
      case 'image':
        return `Read image ${output.filePath} (${output.mediaType}, ${output.bytes} bytes)`;
      case 'pdf':
        return `Read ${output.pages.length} page(s) of ${output.filePath}`;
      case 'notebook':
        return `Read notebook ${output.filePath} (${output.cells} cells)`;
      default:
        return textOf(output);
    }
  },
  async call(input, ctx) {
    return { data: await readFileForModel(input, ctx) };
  },
});

async function readFileForModel(input: z.output<typeof readInput>, ctx: ToolContext): Promise<ReadOutput> {
  const ticket = readTicket();
  const abs = toAbsolute(input.file_path, ctx.cwd);
  const device = deviceByName(abs);
  if (device)
    throw new Error(
      `Cannot read ${abs}: it is ${device}, which would block or never end. Read reads regular files only.`,
    );
  let st: Stats;
  try {
    st = await stat(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new Error(await missingFileMessage(abs, ctx.cwd, { ctx }));
    throw e;
  }
  if (st.isDirectory())
    throw new Error(
      `${abs} is a directory, not a file. Use Glob (pattern "*" with path "${abs}") or ls through Bash to list it.`,
    );
  const special = specialKind(st);
  if (special)
    throw new Error(`Cannot read ${abs}: it is ${special}, not a regular file; reading it could block or never end.`);
  const key = await canonicalPath(abs);
  // O_NONBLOCK, then fstat: if the path was swapped for a FIFO after the stat, the open does not hang and the check below refuses it.
  const handle = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    // The file opened must be the one the permission check allowed: a link may have moved since.
    await assertOpenedAsApproved(handle, { path: abs, access: 'read', ctx });
    const hst = await handle.stat();
    const kind = specialKind(hst);
    if (kind || !hst.isFile()) throw new Error(`Cannot read ${abs}: it is ${kind ?? 'not a regular file'}.`);
    const ext = path.extname(abs).toLowerCase();
    if (IMAGE_EXTENSIONS.has(ext)) return await readImage(abs, key, handle, hst, ctx);
    if (ext === '.pdf') {
      if (hst.size > MAX_PDF_BYTES)
        throw new Error(
          `The PDF ${abs} is ${(hst.size / 2 ** 20).toFixed(1)} MB; Read parses a PDF whole and takes PDFs up to ${MAX_PDF_BYTES / 2 ** 20} MB. Extract the pages you need as text through Bash (pdftotext -f 1 -l 20 ${JSON.stringify(abs)} -), or split it (qpdf --split-pages=20 ${JSON.stringify(abs)} part.pdf) and read a part.`,
        );
      return await readPdf(abs, handle, input.pages);
    }
    if (input.pages !== undefined)
      throw new Error(`pages is only for PDFs; ${abs} is not a PDF. Use offset and limit to page through text.`);
    const opened: OpenedFile = { abs, key, handle, st: hst, input, ctx, ticket };
    if (ext === '.ipynb') {
      if (hst.size > MAX_NOTEBOOK_BYTES) throw new Error(notebookTooLarge(abs, hst.size));
      return await readNotebook(opened);
    }
    return await readText(opened);
  } catch (e) {
    // A "regular" file with nothing to read yet (/proc/kmsg): the non-blocking open says so instead of hanging.
    if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
      throw new Error(
        `Cannot read ${abs}: it has no data ready and reading it would block (a special file that stat reports as regular). Read reads ordinary files only.`,
      );
    }
    throw e;
  } finally {
    await handle.close();
  }
}

/** A file open for one Read: where it is, its handle and stat, what was asked, and the Read's ticket. */
interface OpenedFile {
  abs: string;
  /** The canonical path, the file-state cache's key. */
  key: string;
  handle: FileHandle;
  st: Stats;
  input: z.output<typeof readInput>;
  ctx: ToolContext;
  ticket: number;
}

async function readText(opened: OpenedFile): Promise<ReadOutput> {
  const { abs, key, handle, st, input, ctx, ticket } = opened;
  const start = Math.max(1, input.offset ?? 1);
  const limit = input.limit ?? DEFAULT_READ_LINES;
  const range = await readTextRange(handle, st.size, { start, limit });
  if (range.binaryAt !== undefined) {
    throw new Error(
      `Cannot read ${abs}: it is a binary file (a NUL byte at offset ${range.binaryAt}). Read shows text, images (png, jpeg, gif, webp), PDFs and notebooks.`,
    );
  }
  const seen = {
    contentHash: range.contentHash,
    mtimeMs: st.mtimeMs,
    ctimeMs: st.ctimeMs,
    size: st.size,
    total: range.totalLines,
    text: range.text,
  };
  if (range.totalLines === 0) {
    recordRead(ctx.fileState, key, { ...seen, start: 1, shown: 0 });
    return { type: 'empty', filePath: abs };
  }
  if (start > range.totalLines) return { type: 'past_end', filePath: abs, offset: start, totalLines: range.totalLines };
  const shown = range.lines.length;
  if (isRepeatRead(ctx.fileState, key, { contentHash: range.contentHash, start, shown, ticket })) {
    return { type: 'unchanged', filePath: abs, startLine: start, numLines: shown };
  }
  recordRead(ctx.fileState, key, { ...seen, start, shown });
  const last = start + shown - 1;
  const output: ReadOutput = {
    type: 'text',
    filePath: abs,
    content: numberLines(range.lines, start),
    startLine: start,
    numLines: shown,
    totalLines: range.totalLines,
  };
  if (last < range.totalLines) {
    output.notice = range.capped
      ? `Output capped at about ${MAX_READ_OUTPUT_CHARS / 4} tokens per Read: showing lines ${start}-${last} of ${range.totalLines}. Continue with offset=${last + 1}, or use Grep to find what you need.`
      : `Showing lines ${start}-${last} of ${range.totalLines}. Continue with offset=${last + 1} to read more.`;
  }
  return output;
}

async function readImage(
  abs: string,
  key: string,
  handle: FileHandle,
  st: Stats,
  ctx: ToolContext,
): Promise<ReadOutput> {
  if (st.size > MAX_IMAGE_BYTES) {
    throw new Error(
      `The image ${abs} is ${(st.size / 1048576).toFixed(1)} MB; Read returns images up to ${(MAX_IMAGE_BYTES / 1048576).toFixed(2)} MB. Make a smaller copy (for example with ImageMagick through Bash) and read that.`,
    );
  }
  const bytes = await handle.readFile();
  const mediaType = sniffImage(bytes);
  if (!mediaType)
    throw new Error(`${abs} has an image extension but its bytes are not a PNG, JPEG, GIF or WebP image.`);
  // The model has seen all of it, so a Write that replaces the image is not refused as unread.
  recordRead(ctx.fileState, key, {
    contentHash: hashContent(bytes),
    mtimeMs: st.mtimeMs,
    ctimeMs: st.ctimeMs,
    size: st.size,
    start: 1,
    shown: 1,
    total: 1,
  });
  return { type: 'image', filePath: abs, mediaType, base64: bytes.toString('base64'), bytes: bytes.length };
}

async function readPdf(abs: string, handle: FileHandle, pages: string | undefined): Promise<ReadOutput> {
  const bytes = await handle.readFile();
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
    throw new Error(`${abs} has a .pdf extension but does not start with "%PDF-"; it is not a PDF.`);
  let result;
  try {
    result = await extractPdfText(bytes, pages);
  } catch (e) {
    if (e instanceof RangeError) throw e;
    throw new Error(`Could not read the PDF ${abs}: ${(e as Error).message.split('\n')[0]}`);
  }
  // Read is never persisted, so the pages' text is held to the same cap as a text file's lines.
  const kept = capPdfPages(result.pages, MAX_READ_OUTPUT_CHARS);
  const output: ReadOutput = { type: 'pdf', filePath: abs, pages: kept, totalPages: result.totalPages };
  const lastShown = kept[kept.length - 1]?.page ?? 0;
  if (kept.length < result.pages.length) {
    const next = result.pages[kept.length]!.page;
    output.notice = `Output capped at about ${MAX_READ_OUTPUT_CHARS / 4} tokens per Read: showing pages ${kept[0]!.page}-${lastShown} of ${result.totalPages}. Read more with pages: "${next}-${Math.min(result.totalPages, next + MAX_PDF_PAGES_PER_READ - 1)}".`;
  } else if (pages === undefined && lastShown < result.totalPages) {
    output.notice = `Showing pages 1-${lastShown} of ${result.totalPages}. Read more with pages: "${lastShown + 1}-${Math.min(result.totalPages, lastShown + MAX_PDF_PAGES_PER_READ)}".`;
  }
  return output;
}

async function readNotebook(opened: OpenedFile): Promise<ReadOutput> {
  const { abs, key, handle, st, input, ctx, ticket } = opened;
  const bytes = await handle.readFile();
  const contentHash = hashContent(bytes);
  const { text } = decodeText(bytes);
  const nb = parseNotebook(text, abs);
  const cells = nb.cells.length;
  // For a notebook, offset and limit count cells; the text is capped like a text file's.
  const start = Math.max(1, input.offset ?? 1);
  if (cells > 0 && start > cells) {
    throw new Error(
      `The notebook ${abs} has ${cells} cell${cells === 1 ? '' : 's'}; offset ${start} is past its end (for notebooks, offset and limit count cells).`,
    );
  }
  const { blocks, shown } = renderNotebook(nb, {
    start: start - 1,
    ...(input.limit !== undefined ? { limit: input.limit } : {}),
    maxChars: MAX_READ_OUTPUT_CHARS,
  });
  if (isRepeatRead(ctx.fileState, key, { contentHash, start, shown, ticket })) {
    return { type: 'unchanged', filePath: abs, startLine: start, numLines: shown };
  }
  recordRead(ctx.fileState, key, {
    contentHash,
    mtimeMs: st.mtimeMs,
    ctimeMs: st.ctimeMs,
    size: st.size,
    start,
    shown,
    total: cells,
    text,
  });
  const output: ReadOutput = { type: 'notebook', filePath: abs, cells, blocks };
  const last = start + shown - 1;
  if (start > 1 || last < cells) {
    output.startCell = start;
    output.shownCells = shown;
    if (last < cells) {
      output.notice = `Showing cells ${start}-${last} of ${cells}${input.limit !== undefined && shown === input.limit ? '' : ` (output capped at about ${MAX_READ_OUTPUT_CHARS / 4} tokens per Read)`}. Continue with offset=${last + 1}; for notebooks, offset and limit count cells.`;
    }
  }
  return output;
}

function textOf(output: ReadOutput): string {
  switch (output.type) {
    case 'text':
      return output.notice ? `${output.content}\n\n[${output.notice}]` : output.content;
    case 'unchanged':
      return `File unchanged since your last Read of it (${output.filePath.toLowerCase().endsWith('.ipynb') ? 'cells' : 'lines'} ${output.startLine}-${output.startLine + output.numLines - 1} of ${output.filePath}); that earlier result is still current, so refer to it instead of reading again.`;
    case 'empty':
      return `<system-reminder>The file ${output.filePath} exists but is empty.</system-reminder>`;
    case 'past_end':
      return `<system-reminder>The file ${output.filePath} has ${output.totalLines} line${output.totalLines === 1 ? '' : 's'}; offset ${output.offset} is past its end. Use a smaller offset.</system-reminder>`;
    case 'pdf': {
      const body = output.pages
        .map(
          (p) =>
            `--- Page ${p.page} of ${output.totalPages} ---\n${p.text || '(no text on this page; it may be a scanned image)'}`,
        )
        .join('\n\n');
      return output.notice ? `${body}\n\n[${output.notice}]` : body;
    }
    case 'image':
      return `[image ${output.filePath}]`;
    case 'notebook': {
      const body = output.blocks.map((b) => (b.type === 'text' ? b.text : '[image]')).join('\n');
      return output.notice ? `${body}\n[${output.notice}]` : body;
    }
  }
}

/**
 * Maps a {@linkcode ReadOutput} to `tool_result` content: text for text, PDFs and stubs; an image
 * block for images; text and image blocks for notebooks.
 *
 * @param output What Read returned.
 * @returns The content.
 *
 * @example
 * ```ts
 * import { mapReadResult } from '@toolshed/tool-fs';
 *
 * mapReadResult({ type: 'empty', filePath: '/a' }); // '<system-reminder>The file /a exists but is empty.</system-reminder>'
 * ```
 */
export function mapReadResult(output: ReadOutput): string | ContentBlock[] {
  if (output.type === 'image')
    return [{ type: 'image', source: { type: 'base64', media_type: output.mediaType, data: output.base64 } }];
  if (output.type === 'notebook')
    return output.notice ? [...output.blocks, { type: 'text', text: `[${output.notice}]` }] : output.blocks;
  return textOf(output);
}
