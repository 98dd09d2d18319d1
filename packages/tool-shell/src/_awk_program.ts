/**
 * Why an awk program is not read-only, read from its tokens rather than its raw text: a
 * string or a regex may hold `}`, `;` or `>` (`print "}" > "f"`), and a print statement may go
 * on after a backslash-newline or a comma at the end of a line, so a pattern over the raw text
 * misses redirections that awk sees. Whatever the lexer is not sure of is refused.
 *
 * @module
 */

interface Token {
  /** `name`, `number`, `string`, `regex`, `newline` or the operator itself. */
  kind: string;
  text: string;
}

/** Words that awk does not read as a value, so a `/` after them starts a regex. */
const NOT_OPERANDS = new Set(['print', 'printf', 'return', 'in', 'do', 'else', 'case']);
/** What `print` and `getline` statements may not contain: a file or command on the other side. */
const FORBIDDEN_NAMES: Readonly<Record<string, string>> = {
  system: 'the awk program calls system(), which runs a command',
  extension: 'the awk program loads a shared library with extension()',
};

/**
 * Why an awk program may write, run a command or read a file it names, or undefined.
 *
 * @param program The program text as awk receives it.
 * @returns The reason, or undefined when the program only reads its input and prints.
 *
 * @example
 * ```ts
 * import { awkProgramProblem } from './_awk_program.ts';
 *
 * awkProgramProblem('{ print $1 }');              // undefined
 * awkProgramProblem('{ print "}" > "out.txt" }'); // 'the awk program redirects output to a file'
 * ```
 */
export function awkProgramProblem(program: string): string | undefined {
  const tokens = lex(program);
  if (typeof tokens === 'string') return tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === '@') return 'the awk program uses a gawk directive (@include, @load) or an indirect call';
    if (t.kind === '|' || t.kind === '|&') return 'the awk program pipes to or from a command';
    if (t.kind === 'name' && Object.hasOwn(FORBIDDEN_NAMES, t.text)) return FORBIDDEN_NAMES[t.text];
    if (t.kind === 'name' && (t.text === 'print' || t.text === 'printf')) {
      if (statement(tokens, i + 1).some((s) => s.kind === '>' || s.kind === '>>'))
        return 'the awk program redirects output to a file';
    }
    if (t.kind === 'name' && t.text === 'getline') {
      // `getline < "file"` reads a file no permission rule sees (gawk's /inet/… is a socket).
      if (statement(tokens, i + 1).some((s) => s.kind === '<'))
        return 'the awk program reads a file with getline <, which the file permission rules cannot see';
    }
  }
  return undefined;
}

/**
 * The tokens of one simple statement from `start`: up to `;` or `}` outside parentheses, or a
 * newline after a value (awk goes on after `,`, `&&`, an operator or inside parentheses).
 */
function statement(tokens: readonly Token[], start: number): Token[] {
  const out: Token[] = [];
  let depth = 0;
  for (let i = start; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === '(' || t.kind === '[') depth++;
    else if (t.kind === ')' || t.kind === ']') depth--;
    if (depth <= 0 && (t.kind === ';' || t.kind === '}')) break;
    if (t.kind === 'newline') {
      if (depth <= 0 && isOperand(tokens[i - 1])) break;
      continue;
    }
    out.push(t);
  }
  return out;
}

function isOperand(t: Token | undefined): boolean {
  if (!t) return false;
  if (t.kind === 'name') return !NOT_OPERANDS.has(t.text) && t.text !== 'print' && t.text !== 'printf';
  return ['number', 'string', 'regex', ')', ']', '$', '++', '--'].includes(t.kind);
}

const OPERATORS = [
  '|&',
  '||',
  '&&',
  '>>',
  '>=',
  '<=',
  '==',
  '!=',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '^=',
  '**',
];

/** The program's tokens, strings and regexes as single tokens; a string says why it could not lex. */
function lex(src: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  let previous: Token | undefined;
  const last = () => previous;
  while (i < src.length) {
    const count = tokens.length;
    if (count > 0 && tokens[count - 1]!.kind !== 'newline') previous = tokens[count - 1];
    const ch = src[i]!;
    if (ch === ' ' || ch === '\t') {
      i++;
    } else if (ch === '\\' && src[i + 1] === '\n') {
      i += 2; // a continued line
    } else if (ch === '\n') {
      tokens.push({ kind: 'newline', text: ch });
      i++;
    } else if (ch === '#') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (ch === '"') {
      const end = quoted(src, i, '"');
      if (end === -1) return 'the awk program has an unterminated string';
      tokens.push({ kind: 'string', text: src.slice(i, end) });
      i = end;
    } else if (ch === '/' && !isOperand(last())) {
      const end = quoted(src, i, '/');
      if (end === -1) return 'the awk program has an unterminated regular expression';
      if (end === -2) return 'the awk program has a `/` inside a bracket expression, which awks read differently';
      tokens.push({ kind: 'regex', text: src.slice(i, end) });
      i = end;
    } else if (/[A-Za-z_]/.test(ch)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))!;
      tokens.push({ kind: 'name', text: m[0] });
      i += m[0].length;
    } else if (/[0-9.]/.test(ch)) {
      const m = /^(?:0[xX][0-9a-fA-F]+|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\.)/.exec(src.slice(i));
      if (!m) return `the awk program has a character \`${ch}\` that was not understood`;
      tokens.push({ kind: 'number', text: m[0] });
      i += m[0].length;
    } else {
      const op = OPERATORS.find((o) => src.startsWith(o, i)) ?? ch;
      if (!/^[-+*/%^!<>=~?:;,(){}[\]$|&@]+$/.test(op))
        return `the awk program has a character \`${ch}\` that was not understood`;
      if (op === '/' && last()?.kind === 'name' && last()?.text === 'getline')
        return 'the awk program has a `/` after getline that could be read as division or a regex';
      tokens.push({ kind: op, text: op });
      i += op.length;
    }
  }
  return tokens;
}

/**
 * The index just past a string or regex starting at `start`; -1 when it does not end on its
 * line, -2 for a `/` inside a regex's bracket expression (`/[/]/`), which gawk takes as part of
 * the bracket and other awks as the end of the regex.
 */
function quoted(src: string, start: number, close: string): number {
  let bracketFrom = -1;
  for (let i = start + 1; i < src.length; i++) {
    const ch = src[i]!;
    if (ch === '\n') return -1;
    if (ch === '\\') {
      i++;
      continue;
    }
    if (close !== '/') {
      if (ch === close) return i + 1;
      continue;
    }
    if (bracketFrom === -1) {
      if (ch === '[') bracketFrom = i;
      else if (ch === '/') return i + 1;
    } else if (ch === '/') {
      return -2;
    } else if (ch === '[' && /[:.=]/.test(src[i + 1] ?? '')) {
      // `[:alpha:]` inside a bracket: its `]` does not end the bracket.
      const close = src.indexOf(`${src[i + 1]}]`, i + 2);
      if (close === -1 || src.slice(i, close).includes('\n')) return -1;
      i = close + 1;
    } else if (ch === ']' && i > bracketFrom + 1 && !(i === bracketFrom + 2 && src[bracketFrom + 1] === '^')) {
      // A `]` first in the bracket (`[]a]`, `[^]a]`) is a member, not the end.
      bracketFrom = -1;
    }
  }
  return -1;
}
