/** Options of {@linkcode htmlToMarkdown}. */
export interface HtmlToMarkdownOptions {
  /** The page's URL: relative links and images are made absolute against it. */
  url?: string;
  /**
   * Extract the main content with Mozilla Readability (Firefox's reader view) first, falling back
   * to the whole body without navigation, scripts and styles when it finds no article or the
   * page is over 2 000 000 characters (Readability is the slow part of the conversion).
   * @default true
   */
  readability?: boolean;
  /**
   * Characters of HTML converted at most, after `<script>` and `<style>` blocks are dropped from
   * a page too large for Readability; the rest is cut. The conversion holds the whole DOM in
   * memory and runs on the event loop (about 1 MB/s), so a 10 MB page would otherwise cost tens
   * of seconds and a gigabyte for Markdown that is mostly cut afterwards anyway.
   * @default 2000000
   */
  maxHtmlChars?: number;
}

/** What {@linkcode htmlToMarkdown} returns. */
export interface HtmlToMarkdownResult {
  markdown: string;
  /** The page's title, when it has one. */
  title: string | undefined;
  /** Whether Readability's article was used (false: the whole body was converted). */
  usedReadability: boolean;
  /** How many characters of HTML were converted, when `maxHtmlChars` cut the page; undefined when it was whole. */
  convertedHtmlChars: number | undefined;
}

/**
 * Converts an HTML page to Markdown with turndown: the main content found by Readability (or
 * the whole body without navigation, scripts and styles), links made absolute, ATX headings,
 * fenced code blocks with their language, tables as GFM tables. The DOM (linkedom), Readability
 * and turndown are imported on the first call, so importing this package stays light.
 *
 * @param html The page.
 * @param options The page's URL and whether to use Readability.
 * @returns The Markdown and the page's title.
 * @throws {RangeError} If `maxHtmlChars` is not a whole number above 0.
 *
 * @example
 * ```ts
 * const { markdown } = await htmlToMarkdown('<h1>Hi</h1><p>Hello <b>world</b></p>', { readability: false });
 * markdown; // '# Hi\n\nHello **world**'
 * ```
 */
export async function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions = {}): Promise<HtmlToMarkdownResult> {
  const { convertHtml } = await import('./_html_converter.ts');
  return convertHtml(html, options);
}
