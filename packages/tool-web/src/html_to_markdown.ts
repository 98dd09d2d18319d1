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
}

/** What {@linkcode htmlToMarkdown} returns. */
export interface HtmlToMarkdownResult {
  markdown: string;
  /** The page's title, when it has one. */
  title: string | undefined;
  /** Whether Readability's article was used (false: the whole body was converted). */
  usedReadability: boolean;
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
