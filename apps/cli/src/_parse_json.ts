/** What {@linkcode parseJson} returns: the value, or where and why the text is not JSON. */
export type ParsedJson = { ok: true; value: unknown } | { ok: false; line: number; column: number; message: string };

/**
 * `JSON.parse` with the line and column of the first error. Node 20's messages give a position
 * for some errors only ("Unexpected token '}', ... is not valid JSON" has none), so the position
 * is found by a small scanner that walks the grammar up to the first byte that cannot belong.
 *
 * @param text The text to parse.
 * @returns The value, or the 1-based line and column of the error and the parser's message.
 *
 * @example
 * ```ts
 * import { parseJson } from './_parse_json.ts';
 *
 * parseJson('{\n  "a": }'); // { ok: false, line: 2, column: 8, message: "Unexpected token '}', ..." }
 * ```
 */
export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const offset = errorOffset(text) ?? positionFromMessage(message) ?? text.length;
    return { ok: false, ...lineAndColumn(text, offset), message: shorten(message) };
  }
}

/** A position of the form "at position N" (V8's message for some errors). */
function positionFromMessage(message: string): number | undefined {
  const m = / at position (\d+)/.exec(message);
  return m ? Number(m[1]) : undefined;
}

/** V8 quotes the whole input in some messages; a 2 MB transcript should not end up on stderr. */
function shorten(message: string): string {
  const m = /^(Unexpected token .*?), ".*" is not valid JSON$/s.exec(message);
  return m ? m[1]! : message.split('\n')[0]!;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** The offset of the first character that cannot continue valid JSON, or undefined if none. */
function errorOffset(text: string): number | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  // Each step returns false at the first bad character, leaving `i` on it.
  const value = (): boolean => {
    ws();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    return false;
  };
  const literal = (word: string): boolean => {
    for (const ch of word) {
      if (text[i] !== ch) return false;
      i++;
    }
    return true;
  };
  const digits = (): boolean => {
    const start = i;
    while (i < text.length && text[i]! >= '0' && text[i]! <= '9') i++;
    return i > start;
  };
  const number = (): boolean => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (!digits()) return false;
    if (text[i] === '.') {
      i++;
      if (!digits()) return false;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!digits()) return false;
    }
    return true;
  };
  const string = (): boolean => {
    i++; // the opening quote
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return true;
      }
      if (c < ' ') return false;
      if (c === '\\') {
        i++;
        const e = text[i];
        if (e === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) return ((i += k), false);
          i += 5;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) return false;
      }
      i++;
    }
    return false;
  };
  const array = (): boolean => {
    i++;
    ws();
    if (text[i] === ']') return (i++, true);
    for (;;) {
      if (!value()) return false;
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === ']') return (i++, true);
      else return false;
    }
  };
  const object = (): boolean => {
    i++;
    ws();
    if (text[i] === '}') return (i++, true);
    for (;;) {
      ws();
      if (text[i] !== '"' || !string()) return false;
      ws();
      if (text[i] !== ':') return false;
      i++;
      if (!value()) return false;
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === '}') return (i++, true);
      else return false;
    }
  };
  if (!value()) return i;
  ws();
  return i < text.length ? i : undefined;
}
