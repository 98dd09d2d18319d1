import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { limitNesting } from './_nesting_limit.ts';

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

/** The little of the DOM this file uses; the package compiles without the DOM library. */
interface DomElement {
  nodeName: string;
  textContent: string | null;
  firstChild: DomElement | null;
  children: ArrayLike<DomElement> & Iterable<DomElement>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
  closest(selector: string): DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement> & Iterable<DomElement>;
}

interface DomDocument {
  title: string;
  body: DomElement | null;
  documentElement: DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement> & Iterable<DomElement>;
  toString(): string;
}

function parse(html: string): DomDocument {
  return parseHTML(html).document as unknown as DomDocument;
}

// Readability costs several times the conversion itself (about 0.3 MB/s against 1 MB/s on a
// loaded 2-core machine); past this size the whole body is converted instead.
const READABILITY_MAX_CHARS = 2_000_000;
// The DOM of a 10 MB page takes about a gigabyte and 15 s of blocked event loop to convert.
const MAX_HTML_CHARS = 2_000_000;
// Elements nested deeper than this keep only their text: linkedom's parser takes time in the square
// of the depth (200 000 nested <div>s, 2.2 MB: 46 s), and Readability and turndown then recurse
// until the stack overflows. Real pages nest a few dozen deep.
const MAX_DEPTH = 512;
// An article shorter than this is more likely a cookie banner than the page's content.
const MIN_ARTICLE_CHARS = 200;
const NOISE =
  'script, style, noscript, template, iframe, svg, canvas, nav, footer, aside, [role="navigation"], [aria-hidden="true"]';

let turndown: TurndownService | undefined;

/**
 * The synchronous converter behind {@linkcode htmlToMarkdown}, loaded on first use.
 *
 * @param html The page.
 * @param options The page's URL and whether to use Readability.
 * @returns The Markdown and the page's title.
 * @throws {RangeError} If `maxHtmlChars` is not a whole number above 0.
 *
 * @example
 * ```ts
 * import { convertHtml } from './_html_converter.ts';
 *
 * convertHtml('<p>Hello <b>world</b></p>', { readability: false }).markdown; // 'Hello **world**'
 * ```
 */
export function convertHtml(html: string, options: HtmlToMarkdownOptions = {}): HtmlToMarkdownResult {
  const maxHtmlChars = options.maxHtmlChars ?? MAX_HTML_CHARS;
  if (!(Number.isInteger(maxHtmlChars) && maxHtmlChars > 0))
    throw new RangeError(
      `htmlToMarkdown option maxHtmlChars must be a whole number above 0, got ${String(options.maxHtmlChars)}`,
    );
  // Nesting first, so that the size limits below measure what will be parsed.
  const shallow = limitNesting(html, MAX_DEPTH);
  // Scripts and styles are dropped first only where size matters: they are often most of a big page.
  let source =
    shallow.length > Math.min(READABILITY_MAX_CHARS, maxHtmlChars)
      ? withoutBlocks(shallow, ['script', 'style'])
      : shallow;
  const useReadability = (options.readability ?? true) && source.length <= READABILITY_MAX_CHARS;
  const convertedHtmlChars = source.length > maxHtmlChars ? maxHtmlChars : undefined;
  if (convertedHtmlChars !== undefined) source = source.slice(0, convertedHtmlChars);
  const result = convertDocument(source, options, useReadability);
  return { ...result, convertedHtmlChars };
}

function convertDocument(
  html: string,
  options: HtmlToMarkdownOptions,
  useReadability: boolean,
): Omit<HtmlToMarkdownResult, 'convertedHtmlChars'> {
  const document = parse(wrapFragment(html));
  const title = document.title?.trim() || undefined;
  absolutize(document, options.url);
  const service = (turndown ??= createTurndown());
  if (useReadability) {
    // Readability takes the document apart as it works; the fallback needs a fresh one.
    const article = new Readability(parse(document.toString()) as never, {
      charThreshold: MIN_ARTICLE_CHARS,
      keepClasses: true,
    }).parse();
    if (article?.content && (article.textContent ?? '').trim().length >= MIN_ARTICLE_CHARS) {
      const articleDoc = parse(`<!doctype html><html><body>${article.content}</body></html>`);
      const body = tidy(service.turndown(articleDoc.body as unknown as TurndownService.Node));
      return {
        markdown: withTitle(body, article.title?.trim() || title),
        title: article.title?.trim() || title,
        usedReadability: true,
      };
    }
  }
  for (const node of [...document.querySelectorAll(NOISE)]) node.remove();
  const root = document.body ?? document.documentElement;
  const body = root ? tidy(service.turndown(root as unknown as TurndownService.Node)) : '';
  return { markdown: withTitle(body, title), title, usedReadability: false };
}

function createTurndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
  });
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'svg', 'canvas'] as TurndownService.Filter);
  service.addRule('table', {
    filter: 'table',
    replacement: (_content, node) => `\n\n${tableToMarkdown(node as unknown as DomElement)}\n\n`,
  });
  service.addRule('fencedCodeLanguage', {
    filter: (node) => node.nodeName === 'PRE' && node.firstChild?.nodeName === 'CODE',
    replacement: (_content, node) => {
      const code = node.firstChild as unknown as DomElement;
      const language = /(?:^|\s)(?:language|lang)-(\S+)/.exec(code.getAttribute('class') ?? '')?.[1] ?? '';
      const text = (code.textContent ?? '').replace(/\n$/, '');
      const fence = text.includes('```') ? '````' : '```';
      return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
    },
  });
  return service;
}

function tableToMarkdown(table: DomElement): string {
  const rows = [...table.querySelectorAll('tr')].filter((tr) => tr.closest('table') === table);
  const cells = rows
    .map((tr) =>
      [...tr.children]
        .filter((c) => c.nodeName === 'TD' || c.nodeName === 'TH')
        .map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')),
    )
    .filter((r) => r.length > 0);
  if (cells.length === 0) return '';
  const width = Math.max(...cells.map((r) => r.length));
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? '').join(' | ')} |`;
  const [head, ...rest] = cells;
  return [line(head!), `| ${new Array(width).fill('---').join(' | ')} |`, ...rest.map(line)].join('\n');
}

function absolutize(document: DomDocument, url: string | undefined): void {
  let base: URL | undefined;
  try {
    base = url ? new URL(url) : undefined;
  } catch {
    base = undefined;
  }
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  if (base && baseHref) {
    try {
      base = new URL(baseHref, base);
    } catch {
      // A broken <base> is ignored, as browsers do.
    }
  }
  for (const [selector, attr] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const el of [...document.querySelectorAll(selector)]) {
      const value = el.getAttribute(attr) ?? '';
      if (/^\s*javascript:/i.test(value)) {
        el.removeAttribute(attr);
        continue;
      }
      if (!base) continue;
      try {
        el.setAttribute(attr, new URL(value, base).href);
      } catch {
        // Left as written.
      }
    }
  }
}

/**
 * The HTML without the named elements' blocks (`<script …>…</script>`), in one linear pass: a
 * regular expression with a lazy `[\s\S]*?` rescans to the end for every unclosed opening tag,
 * which a hostile page can repeat a million times. An unclosed block runs to the end, as a
 * browser's parser reads it.
 */
function withoutBlocks(html: string, names: readonly string[]): string {
  const lower = html.toLowerCase();
  const opening = (name: string, from: number): number => {
    let i = lower.indexOf(`<${name}`, from);
    // `<scripts>` or `<styleguide>` are other elements.
    while (i !== -1 && /[a-z0-9-]/.test(lower[i + name.length + 1] ?? '')) i = lower.indexOf(`<${name}`, i + 1);
    return i;
  };
  // The next opening tag of each name at or after `at`: searched again only once passed, so
  // every search moves forward and the whole pass stays linear.
  const next = new Map(names.map((name) => [name, opening(name, 0)]));
  const parts: string[] = [];
  let at = 0;
  for (;;) {
    let start = -1;
    let name = '';
    for (const candidate of names) {
      let i = next.get(candidate) ?? -1;
      if (i !== -1 && i < at) next.set(candidate, (i = opening(candidate, at)));
      if (i !== -1 && (start === -1 || i < start)) {
        start = i;
        name = candidate;
      }
    }
    if (start === -1) break;
    parts.push(html.slice(at, start));
    const close = lower.indexOf(`</${name}`, start);
    const end = close === -1 ? -1 : lower.indexOf('>', close);
    if (end === -1) return parts.join('');
    at = end + 1;
  }
  parts.push(html.slice(at));
  return parts.join('');
}

/** linkedom needs a document; a bare fragment (`<p>hi</p>`) gets the html and body around it. */
function wrapFragment(html: string): string {
  return /<html[\s>]/i.test(html.slice(0, 2048))
    ? html
    : `<!doctype html><html><head></head><body>${html}</body></html>`;
}

function tidy(markdown: string): string {
  return markdown
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function withTitle(markdown: string, title: string | undefined): string {
  if (!title) return markdown;
  const head = markdown.slice(0, 500);
  if (head.includes(title)) return markdown;
  return markdown ? `# ${title}\n\n${markdown}` : `# ${title}`;
}
