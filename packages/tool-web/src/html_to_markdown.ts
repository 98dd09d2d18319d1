// The options and result are declared beside the converter, which this file imports lazily: the
// types run one way (this file to the converter) and importing the package stays light.
import type { HtmlToMarkdownOptions, HtmlToMarkdownResult } from './_html_converter.ts';

export type { HtmlToMarkdownOptions, HtmlToMarkdownResult };

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
 * import { htmlToMarkdown } from '@toolshed/tool-web';
 *
 * const { markdown } = await htmlToMarkdown('<h1>Hi</h1><p>Hello <b>world</b></p>', { readability: false });
 * markdown; // '# Hi\n\nHello **world**'
 * ```
 */
export async function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions = {}): Promise<HtmlToMarkdownResult> {
  const { convertHtml } = await import('./_html_converter.ts');
  return convertHtml(html, options);
}
