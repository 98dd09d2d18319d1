/**
 * The JSON value `text` re-indented (two spaces a level, one member or element a line), when
 * `text` is one JSON value: only the whitespace between tokens changes, so every number, string
 * and key stays exactly as written (a `JSON.parse` and `JSON.stringify` round trip would round big
 * integers and drop duplicate keys). Undefined when `text` is not one JSON object or array, or
 * nests deeper than 100 levels.
 *
 * @param text The output.
 * @returns The re-indented text, or undefined.
 *
 * @example
 * ```ts
 * import { indentJson } from './_json_indent.ts';
 *
 * indentJson('{"a":[1,2],"b":{}}'); // '{\n  "a": [\n    1,\n    2\n  ],\n  "b": {}\n}'
 * indentJson('not json'); // undefined
 * ```
 */
export function indentJson(text: string): string | undefined {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  const out: string[] = [];
  let depth = 0;
  const newline = () => out.push('\n', '  '.repeat(depth));
  // Past this depth an indent alone fills a tenth of a line Read shows, and the indents of deep
  // nesting grow with the square of the depth (20 000 levels: 400 million spaces): not re-indented.
  const maxDepth = 100;
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === '"') {
      // A string, escapes included, copied as one piece.
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out.push(text.slice(i, j + 1));
      i = j + 1;
    } else if (c === '{' || c === '[') {
      const next = skipSpace(text, i + 1);
      if (text[next] === '}' || text[next] === ']') {
        out.push(c, text[next]!);
        i = next + 1;
      } else {
        out.push(c);
        depth++;
        if (depth > maxDepth) return undefined;
        newline();
        i++;
      }
    } else if (c === '}' || c === ']') {
      depth--;
      newline();
      out.push(c);
      i++;
    } else if (c === ',') {
      out.push(',');
      newline();
      i++;
    } else if (c === ':') {
      out.push(': ');
      i++;
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else {
      // A number, true, false or null: up to the next structural character or space.
      let j = i + 1;
      while (j < text.length && !',:{}[] \t\n\r"'.includes(text[j]!)) j++;
      out.push(text.slice(i, j));
      i = j;
    }
  }
  return out.join('');
}

function skipSpace(text: string, i: number): number {
  while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i++;
  return i;
}
