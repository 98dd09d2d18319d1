/**
 * The offset of the first syntax error in JSON text, found by a small recursive-descent scan,
 * because Node 20's `JSON.parse` messages do not always give a position. Undefined when the
 * scan finds none (then `JSON.parse`'s own message has to do).
 *
 * @param text The JSON text that failed to parse.
 * @returns The offset of the offending character (the end of the text when it ends too soon).
 *
 * @example
 * ```ts
 * import { jsonErrorOffset } from './_json_scan.ts';
 *
 * jsonErrorOffset('{"a": [1,]}'); // 9
 * ```
 */
export function jsonErrorOffset(text: string): number | undefined {
  return scanJson(text).errorOffset;
}

/**
 * The key path of the first key that appears twice in one object, as in
 * `{"permissions": {…}, "permissions": {…}}`. `JSON.parse` keeps the last silently, which in a
 * settings file would drop the first object's deny rules.
 *
 * @param text JSON text (it need not be valid; the scan stops at the first syntax error).
 * @returns The dotted key path (`permissions`, `permissions.deny`, `hooks.PreToolUse[0].matcher`), or undefined.
 *
 * @example
 * ```ts
 * import { jsonDuplicateKey } from './_json_scan.ts';
 *
 * jsonDuplicateKey('{"a": {"b": 1, "b": 2}}'); // 'a.b'
 * ```
 */
export function jsonDuplicateKey(text: string): string | undefined {
  return scanJson(text).duplicateKey;
}

function scanJson(text: string): { errorOffset?: number; duplicateKey?: string } {
  let duplicateKey: string | undefined;
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail();
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m || m[0] === '') fail();
    i += m![0].length;
  };
  const value = (path: string): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      const keys = new Set<string>();
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        const start = i;
        string();
        const key = JSON.parse(text.slice(start, i)) as string;
        const keyPath = path ? `${path}.${key}` : key;
        if (keys.has(key)) duplicateKey ??= keyPath;
        keys.add(key);
        ws();
        if (text[i] !== ':') fail();
        i++;
        value(keyPath);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') return void i++;
        fail();
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (let index = 0; ; index++) {
        value(`${path}[${index}]`);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') return void i++;
        fail();
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    fail();
  };
  try {
    value('');
    ws();
    if (i < text.length) fail();
    return duplicateKey === undefined ? {} : { duplicateKey };
  } catch (offset) {
    if (typeof offset === 'number') return { errorOffset: Math.min(offset, text.length) };
    throw offset;
  }
}
