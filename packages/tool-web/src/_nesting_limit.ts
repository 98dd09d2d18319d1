/** Elements with no content, or whose end tag HTML lets a page leave out: they do not count as nesting (nor raw-text ones). */
const UNCOUNTED = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
  'p',
  'li',
  'dt',
  'dd',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
  'option',
  'optgroup',
  'rb',
  'rt',
  'rtc',
  'rp',
  'colgroup',
  'caption',
  'html',
  'head',
  'body',
]);
/** Elements whose content is text up to their end tag (a `<div>` in a script is not one). */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);

/**
 * The HTML with the tags of elements nested deeper than `maxDepth` left out and their text kept,
 * in one pass over the text: a page that nests `<div>`s two hundred thousand deep (2.2 MB) would
 * otherwise cost the parser time in the square of the depth, and every recursive walk of the tree
 * after it its stack. Elements whose end tag may be left out (`<p>`, `<li>`, `<td>`) and empty
 * ones (`<br>`) do not count, so a page that never closes its paragraphs is not cut. A page
 * within the depth is returned as it is.
 *
 * @param html The page.
 * @param maxDepth Nesting kept.
 * @returns The page, its deepest tags left out.
 *
 * @example
 * ```ts
 * import { limitNesting } from './_nesting_limit.ts';
 *
 * limitNesting('<div><div><b>x</b></div></div>', 1); // '<div>x</div>'
 * ```
 */
export function limitNesting(html: string, maxDepth: number): string {
  if (!deeperThan(html, maxDepth)) return html;
  const parts: string[] = [];
  let depth = 0;
  let copied = 0;
  walkTags(html, (tag, start, end) => {
    // A script or style stays whole wherever it is: left out, its code would read as the page's text.
    if (RAW_TEXT.has(tag.name)) return;
    const counted = !UNCOUNTED.has(tag.name) && !tag.selfClosing;
    let drop: boolean;
    if (tag.closing) {
      drop = depth > maxDepth;
      if (counted && depth > 0) depth--;
    } else {
      if (counted) depth++;
      drop = depth > maxDepth;
    }
    if (drop) {
      parts.push(html.slice(copied, start));
      copied = end;
    }
  });
  parts.push(html.slice(copied));
  return parts.join('');
}

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
}

function deeperThan(html: string, maxDepth: number): boolean {
  let depth = 0;
  let deeper = false;
  walkTags(html, (tag) => {
    if (UNCOUNTED.has(tag.name) || RAW_TEXT.has(tag.name) || tag.selfClosing) return;
    if (tag.closing) depth = Math.max(0, depth - 1);
    else if (++depth > maxDepth) deeper = true;
  });
  return deeper;
}

/**
 * Each start and end tag in order, skipping comments and the text of raw-text elements. Written as
 * a scan rather than a regular expression: each step moves past the next `>`, so the pass stays
 * linear however the page breaks its tags (a regular expression retries from every `<` of a page
 * with no `>`).
 */
function walkTags(html: string, visit: (tag: Tag, start: number, end: number) => void): void {
  let lower: string | undefined;
  for (let at = html.indexOf('<'); at !== -1; ) {
    if (html.startsWith('<!--', at)) {
      const close = html.indexOf('-->', at + 4);
      if (close === -1) return;
      at = html.indexOf('<', close + 3);
      continue;
    }
    const end = html.indexOf('>', at + 1);
    if (end === -1) return;
    const name = /^<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)/.exec(html.slice(at, Math.min(end, at + 64)));
    if (name === null) {
      at = html.indexOf('<', at + 1);
      continue;
    }
    const tag = { name: name[2]!.toLowerCase(), closing: name[1] === '/', selfClosing: html[end - 1] === '/' };
    visit(tag, at, end + 1);
    let next = end + 1;
    if (!tag.closing && !tag.selfClosing && RAW_TEXT.has(tag.name)) {
      lower ??= html.toLowerCase();
      const close = lower.indexOf(`</${tag.name}`, next);
      if (close === -1) return;
      next = close;
    }
    at = html.indexOf('<', next);
  }
}
