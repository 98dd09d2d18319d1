/**
 * Turns a glob into a regular expression over slash-separated relative paths, with the
 * semantics of fast-glob and picomatch: `*` and `?` stay within one path segment, `**` spans
 * segments, `[…]` is a character class, `{a,b}` alternatives (nested), `\` escapes; dotfiles
 * match (hidden files are searched).
 *
 * @param glob The pattern, e.g. `src/**\/*.{ts,tsx}`.
 * @returns A regular expression that matches whole paths.
 * @throws {SyntaxError} For an unclosed `[` or `{`.
 *
 * @example
 * ```ts
 * globToRegExp('src/**\/*.ts').test('src/a/b.ts'); // true
 * globToRegExp('*.ts').test('src/b.ts');           // false
 * ```
 */
export function globToRegExp(glob: string): RegExp {
  const pattern = glob.replace(/^\.\//, '');
  return new RegExp(`^${convert(pattern, 0, false).source}$`, 'u');
}

function convert(p: string, start: number, inBrace: boolean): { source: string; end: number } {
  let out = '';
  let i = start;
  while (i < p.length) {
    const c = p[i]!;
    if (inBrace && (c === ',' || c === '}')) return { source: out, end: i };
    if (c === '\\') {
      out += escape(p[i + 1] ?? '\\');
      i += 2;
    } else if (c === '*') {
      if (p[i + 1] === '*') {
        const atStart = i === 0 || p[i - 1] === '/';
        const atEnd = i + 2 === p.length || p[i + 2] === '/' || (inBrace && (p[i + 2] === ',' || p[i + 2] === '}'));
        if (atStart && atEnd) {
          if (p[i + 2] === '/') {
            out += '(?:[^/]*/)*'; // `**/`: any number of whole segments
            i += 3;
          } else {
            out += '.*';
            i += 2;
          }
          continue;
        }
        out += '[^/]*';
        i += 2;
        continue;
      }
      out += '[^/]*';
      i++;
    } else if (c === '?') {
      out += '[^/]';
      i++;
    } else if (c === '[') {
      const close = p.indexOf(']', i + 2);
      if (close === -1) throw new SyntaxError(`The glob "${p}" has an unclosed "[" at position ${i}.`);
      let body = p.slice(i + 1, close);
      let negate = false;
      if (body.startsWith('!') || body.startsWith('^')) {
        negate = true;
        body = body.slice(1);
      }
      out += `[${negate ? '^/' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`;
      i = close + 1;
    } else if (c === '{') {
      const alternatives: string[] = [];
      let j = i + 1;
      for (;;) {
        const part = convert(p, j, true);
        alternatives.push(part.source);
        if (part.end >= p.length) throw new SyntaxError(`The glob "${p}" has an unclosed "{" at position ${i}.`);
        j = part.end + 1;
        if (p[part.end] === '}') break;
      }
      out += `(?:${alternatives.join('|')})`;
      i = j;
    } else {
      out += escape(c);
      i++;
    }
  }
  return { source: out, end: i };
}

function escape(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

/**
 * Expands `{a,b}` alternatives (nested too) into separate globs, for matchers that lack them
 * (gitignore-style matching has none).
 *
 * @param glob The pattern.
 * @returns The patterns, in order; the pattern itself when it has no alternatives.
 *
 * @example
 * ```ts
 * expandBraces('*.{ts,tsx}'); // ['*.ts', '*.tsx']
 * ```
 */
export function expandBraces(glob: string): string[] {
  let depth = 0;
  let open = -1;
  const commas: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') {
      if (depth === 0) open = i;
      depth++;
    } else if (c === ',' && depth === 1) {
      commas.push(i);
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0) {
        if (commas.length === 0) {
          commas.length = 0;
          continue;
        }
        const head = glob.slice(0, open);
        const tail = glob.slice(i + 1);
        const cuts = [open, ...commas, i];
        const out: string[] = [];
        for (let k = 0; k < cuts.length - 1; k++) {
          for (const variant of expandBraces(`${head}${glob.slice(cuts[k]! + 1, cuts[k + 1])}${tail}`)) out.push(variant);
        }
        return out;
      }
    }
  }
  return [glob];
}
