/**
 * The largest PDF Read opens: a PDF is parsed whole (pdf.js holds it and its objects in memory,
 * about three times its size), so a larger one is refused before it is read.
 *
 * @example
 * ```ts
 * import { MAX_PDF_BYTES } from './_pdf.ts';
 *
 * MAX_PDF_BYTES / 2 ** 20; // 64 (MiB)
 * ```
 */
export const MAX_PDF_BYTES = 64 * 1024 * 1024;

/** Pages one Read of a PDF returns at most. */
export const MAX_PDF_PAGES_PER_READ = 20;

/** The text of one PDF page. */
export interface PdfPage {
  page: number;
  text: string;
}

/**
 * Parses a `pages` value such as `"3"`, `"1-5"` or `"1-3,7"` into page numbers.
 *
 * @param spec The value.
 * @param total Pages in the document.
 * @returns The page numbers, ascending, without duplicates.
 * @throws {RangeError} For a malformed range or a page past the end (the message says the count).
 *
 * @example
 * ```ts
 * import { parsePageSpec } from './_pdf.ts';
 *
 * parsePageSpec('1-3,7', 10); // [1, 2, 3, 7]
 * ```
 */
export function parsePageSpec(spec: string, total: number): number[] {
  const pages = new Set<number>();
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\d+)(?:\s*-\s*(\d*))?$/.exec(part);
    if (!m) throw new RangeError(`pages "${spec}" is not a page list; use forms like "3", "1-5" or "1-3,7".`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : m[2] === '' ? total : Number(m[2]);
    if (from < 1 || to < from)
      throw new RangeError(`pages "${part}" is not a valid range; pages start at 1 and a range goes upwards.`);
    if (from > total)
      throw new RangeError(`page ${from} does not exist: the PDF has ${total} page${total === 1 ? '' : 's'}.`);
    for (let p = from; p <= Math.min(to, total); p++) pages.add(p);
  }
  if (pages.size === 0) throw new RangeError(`pages "${spec}" names no page; use forms like "3", "1-5" or "1-3,7".`);
  return [...pages].sort((a, b) => a - b);
}

/**
 * Extracts the text of some pages of a PDF with pdf.js (Mozilla's maintained PDF library; its
 * legacy build runs on Node 20).
 *
 * @param data The PDF's bytes.
 * @param pages Which pages: a `pages` spec, or undefined for the first {@linkcode MAX_PDF_PAGES_PER_READ}.
 * @returns The pages' text and the document's page count.
 * @throws {RangeError} For a bad `pages` value or more pages than the cap.
 * @throws {Error} When the bytes are not a readable PDF (pdf.js's message).
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import { extractPdfText } from './_pdf.ts';
 *
 * const { pages, totalPages } = await extractPdfText(await readFile('a.pdf'), '1-2');
 * ```
 */
export async function extractPdfText(
  data: Uint8Array,
  pages: string | undefined,
): Promise<{ pages: PdfPage[]; totalPages: number }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(data),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  try {
    const total = doc.numPages;
    const wanted =
      pages === undefined
        ? Array.from({ length: Math.min(total, MAX_PDF_PAGES_PER_READ) }, (_, i) => i + 1)
        : parsePageSpec(pages, total);
    if (wanted.length > MAX_PDF_PAGES_PER_READ) {
      throw new RangeError(
        `pages "${pages}" asks for ${wanted.length} pages; one Read returns at most ${MAX_PDF_PAGES_PER_READ}. Ask for a smaller range.`,
      );
    }
    const out: PdfPage[] = [];
    for (const n of wanted) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
        else if (item.str !== '' && !text.endsWith(' ')) text += ' ';
      }
      out.push({ page: n, text: text.replace(/[ \t]+\n/g, '\n').trim() });
      page.cleanup();
    }
    return { pages: out, totalPages: total };
  } finally {
    await doc.destroy();
  }
}

/**
 * The leading pages whose text fits in `maxChars` (always at least one page, cut with a marker
 * when it alone is over), so a Read of dense pages stays within Read's output cap.
 *
 * @param pages The extracted pages, in order.
 * @param maxChars The cap on the text of all kept pages.
 * @returns The pages kept; fewer than given when the cap stopped them.
 *
 * @example
 * ```ts
 * import { capPdfPages } from './_pdf.ts';
 *
 * capPdfPages([{ page: 1, text: 'a' }, { page: 2, text: 'b'.repeat(200_000) }], 100_000).length; // 1
 * ```
 */
export function capPdfPages(pages: readonly PdfPage[], maxChars: number): PdfPage[] {
  const kept: PdfPage[] = [];
  let chars = 0;
  for (const page of pages) {
    // 40: the "--- Page n of m ---" heading each page gets.
    const cost = page.text.length + 40;
    if (chars + cost > maxChars && kept.length > 0) break;
    kept.push(
      page.text.length > maxChars
        ? { page: page.page, text: `${page.text.slice(0, maxChars)}… [page truncated: ${page.text.length} characters]` }
        : page,
    );
    chars += cost;
  }
  return kept;
}
