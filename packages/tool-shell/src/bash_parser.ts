import { createRequire } from 'node:module';
import type { Node, Parser as ParserType } from 'web-tree-sitter';

/** One word of a command (its name, an argument, an assignment, a redirect target). */
export interface ShellWord {
  /** The source text, quotes included. */
  text: string;
  /** The value the program receives when `literal` is true; a best effort otherwise. */
  value: string;
  /**
   * True when `value` is exactly what the shell passes: no expansion, no glob, no brace
   * expansion, no substitution. A non-literal word may turn into any text, flags included.
   */
  literal: boolean;
}

/** One redirection (`> out`, `2>&1`, `< in`, `<<EOF`). */
export interface ShellRedirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `>&`, `<`, `<&`, `<>`, `<<`, `<<-` or `<<<`. */
  operator: string;
  /** The file descriptor written before the operator (`2` of `2>`), if any. */
  fd: number | undefined;
  /** The target word; undefined for a here-document. */
  target: ShellWord | undefined;
}

/** One simple command: what a pipeline, list or subshell is made of. */
export interface SimpleCommand {
  /**
   * `command`: a program with arguments; `assignment`: `x=1` on its own; `declaration`:
   * `export`, `declare`, `local`, `readonly`, `typeset`, `unset`; `test`: `[[ … ]]` or `[ … ]`.
   */
  kind: 'command' | 'assignment' | 'declaration' | 'test';
  /** The command's words in source form, joined by one space, redirections left out. */
  text: string;
  /** Environment prefixes (`FOO=1 cmd`), or the assignment itself for `kind: 'assignment'`. */
  assignments: ShellWord[];
  /** The program; undefined for assignments and declarations. */
  name: ShellWord | undefined;
  args: ShellWord[];
  /** Redirections written on this command (not those of an enclosing group). */
  redirects: ShellRedirect[];
  /** Inside a substitution, a function body or a control structure, not at the top level. */
  nested: boolean;
  /** Runs in a subshell of its own: inside `( … )`, or one part of a pipeline of several. */
  subshell?: boolean;
  /** Runs only if what comes before it in an `&&`/`||` list succeeded or failed. */
  conditional?: boolean;
}

/** What {@linkcode analyzeCommand} found in a command string. */
export interface ShellAnalysis {
  /** False when the parser failed, timed out, or found a syntax error: nothing below is complete. */
  ok: boolean;
  /** Why `ok` is false. */
  error?: string;
  /** Every simple command, nested ones included, in source order. */
  commands: SimpleCommand[];
  /** Every redirection, on commands and on groups (`{ a; b; } > f`). */
  redirects: ShellRedirect[];
  /**
   * Constructs beyond plain commands, lists, pipelines and subshells: `command_substitution`,
   * `process_substitution`, `arithmetic`, `function_definition`, `control_flow`, `background`,
   * `complex_expansion` (`${x:-y}`, `${!x}`), `prompt_expansion` (`${x@P}`), `heredoc_expansion`,
   * `unknown:<node type>`.
   */
  constructs: Set<string>;
}

/** Options of {@linkcode analyzeCommand}. */
export interface AnalyzeOptions {
  /** Parsing longer than this fails (fail closed). @default 50 */
  timeoutMs?: number;
  /** Longer commands are not parsed at all. @default 20000 */
  maxLength?: number;
  /** Reuse the analysis of the same string (a small LRU); off to measure parsing. @default true */
  cache?: boolean;
}

const CACHE_SIZE = 256;
const cache = new Map<string, ShellAnalysis>();
let loading: Promise<ParserType> | undefined;
let parser: ParserType | undefined;

/**
 * Loads the bash grammar (web-tree-sitter with tree-sitter-bash's wasm) once per process.
 * Parsing is synchronous after this resolves; the shell family awaits it in its setup.
 *
 * @returns Resolves when {@linkcode analyzeCommand} can parse.
 * @throws {Error} If the wasm files cannot be found or loaded (the message names the file).
 *
 * @example
 * ```ts
 * import { analyzeCommand, loadBashParser } from '@toolshed/tool-shell/internal';
 *
 * await loadBashParser();
 * analyzeCommand('ls -la | wc -l').commands.length; // 2
 * ```
 */
export function loadBashParser(): Promise<void> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const { Parser, Language } = await import('web-tree-sitter');
    let wasm: string;
    try {
      wasm = require.resolve('tree-sitter-bash/tree-sitter-bash.wasm');
    } catch (e) {
      throw new Error(
        `The bash grammar "tree-sitter-bash/tree-sitter-bash.wasm" was not found: install tree-sitter-bash 0.25 (${(e as Error).message})`,
      );
    }
    await Parser.init();
    const language = await Language.load(wasm);
    const p = new Parser();
    p.setLanguage(language);
    parser = p;
    return p;
  })().catch((e: unknown) => {
    loading = undefined;
    throw e;
  });
  return loading.then(() => undefined);
}

/**
 * Whether {@linkcode loadBashParser} has finished, so that {@linkcode analyzeCommand} works.
 *
 * @returns True once the grammar is loaded.
 *
 * @example
 * ```ts
 * import { isBashParserLoaded, loadBashParser } from '@toolshed/tool-shell/internal';
 *
 * if (!isBashParserLoaded()) await loadBashParser();
 * ```
 */
export function isBashParserLoaded(): boolean {
  return parser !== undefined;
}

/**
 * Parses a command string with a real bash grammar and lists its simple commands (nested
 * ones included), its redirections and every construct beyond plain commands. Fails closed:
 * a syntax error, a parse that takes too long, or a grammar that is not loaded gives
 * `ok: false`, and callers treat that as "not understood".
 *
 * @param command The command string as the model wrote it.
 * @param options Time and length limits.
 * @returns The analysis.
 *
 * @example
 * ```ts
 * import { analyzeCommand, loadBashParser } from '@toolshed/tool-shell/internal';
 *
 * await loadBashParser();
 * const a = analyzeCommand('cd src && grep -n TODO *.ts 2>/dev/null');
 * a.commands.map((c) => c.name?.value); // ['cd', 'grep']
 * a.redirects[0]?.target?.value;        // '/dev/null'
 * ```
 */
export function analyzeCommand(command: string, options: AnalyzeOptions = {}): ShellAnalysis {
  const useCache = options.cache ?? true;
  const cached = useCache ? cache.get(command) : undefined;
  if (cached) return cached;
  const analysis: ShellAnalysis = { ok: true, commands: [], redirects: [], constructs: new Set() };
  const fail = (error: string): ShellAnalysis => ({ ...analysis, ok: false, error });
  if (!parser) return fail('the bash parser is not loaded (call loadBashParser first)');
  const maxLength = options.maxLength ?? 20_000;
  if (command.length > maxLength) return fail(`the command is longer than ${maxLength} characters`);
  // bash joins a backslash-newline inside a word (`-del\⏎ete` is `-delete`, `r\⏎m` is `rm`,
  // `&\⏎&` is `&&`); the grammar splits the word there. After a blank both agree.
  if (/[^\s]\\\n/.test(command))
    return fail('a backslash-newline inside a word joins it for bash but splits it for the parser');
  const deadline = performance.now() + (options.timeoutMs ?? 50);
  let timedOut = false;
  parser.reset();
  const tree = parser.parse(command, null, {
    progressCallback: () => {
      if (performance.now() > deadline) timedOut = true;
      return timedOut;
    },
  });
  if (!tree) return fail(timedOut ? 'parsing took too long' : 'the parser returned no tree');
  try {
    const root = tree.rootNode;
    // bash splits words on spaces, tabs and newlines only; the grammar also on a carriage
    // return. Other control characters are no better: whatever the two may read differently is
    // flagged, so classification fails closed on it.
    if (/\r/.test(command)) analysis.constructs.add('carriage_return');
    if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(command)) analysis.constructs.add('control_character');
    let result: ShellAnalysis;
    if (root.hasError) result = fail('the command has a syntax error (or a construct the parser does not understand)');
    else {
      const walker = new Walker(analysis);
      walker.statement(root, false);
      // A here-document the grammar ends elsewhere than bash does hides the commands between
      // the two ends from every check (deny rules included): nothing after it is known.
      result = walker.broken ? fail(walker.broken) : analysis;
    }
    // isReadOnly, isConcurrencySafe, the permission matcher and resources all parse the same
    // command within one call; a small cache makes that one parse. Results are never mutated.
    if (useCache) remember(command, result);
    return result;
  } finally {
    tree.delete();
  }
}

function remember(command: string, analysis: ShellAnalysis): void {
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(command, analysis);
}

const STRUCTURAL = new Set(['program', 'list', 'pipeline', 'subshell', 'compound_statement', 'negated_command']);
const CONTROL = new Set([
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
  'case_item',
  'do_group',
]);
const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

class Walker {
  /** Set when the tree cannot be trusted to be what bash runs. */
  broken: string | undefined;
  /** How many subshells (`( … )`, pipelines of several parts) enclose the node walked. */
  subshells = 0;
  /** How many `&&`/`||` right-hand sides enclose the node walked. */
  conditionals = 0;
  /** The simple command made of each `command` node, by node id. */
  readonly byNode = new Map<number, SimpleCommand>();

  constructor(readonly out: ShellAnalysis) {}

  statement(node: Node, nested: boolean): void {
    const type = node.type;
    if (!node.isNamed) {
      if (type === '&') this.out.constructs.add('background');
      return;
    }
    if (STRUCTURAL.has(type)) {
      const sub = type === 'subshell' || (type === 'pipeline' && node.namedChildCount > 1);
      if (sub) this.subshells++;
      let first = true;
      for (const child of node.children) {
        if (!child) continue;
        // In `a && b || c`, only the first part surely runs.
        const later = type === 'list' && child.isNamed && !first;
        if (later) this.conditionals++;
        this.statement(child, nested);
        if (later) this.conditionals--;
        if (child.isNamed) first = false;
      }
      if (sub) this.subshells--;
      return;
    }
    switch (type) {
      case 'comment':
        return;
      case 'redirected_statement': {
        // `cat < f`, and `cd x && cat < f` (which the grammar reads as a redirection of the
        // whole list, but bash gives to the last command): the redirections belong to the
        // command they are written after, unless that is a group or subshell.
        const own: ShellRedirect[] = [];
        let body: Node | undefined;
        for (const child of node.children) {
          if (!child) continue;
          if (REDIRECTS.has(child.type)) own.push(this.redirect(child, undefined, nested));
          else if (child.isNamed) {
            body = child;
            this.statement(child, nested);
          }
        }
        let last = body;
        while (last && (last.type === 'list' || last.type === 'pipeline'))
          last = last.namedChildren.filter((c) => c !== null).at(-1) ?? undefined;
        const owner = last ? this.byNode.get(last.id) : undefined;
        if (owner) owner.redirects.push(...own);
        return;
      }
      case 'command':
        this.command(node, nested);
        return;
      // `$(< f)`: bash reads f itself, a redirection with no command.
      case 'file_redirect':
        this.redirect(node, undefined, nested);
        return;
      case 'variable_assignment': {
        const word = this.word(node, nested);
        this.out.commands.push({
          kind: 'assignment',
          text: node.text,
          assignments: [word],
          name: undefined,
          args: [],
          redirects: [],
          nested,
        });
        return;
      }
      case 'declaration_command':
      case 'unset_command': {
        const args: ShellWord[] = [];
        for (const child of node.namedChildren) if (child) args.push(this.word(child, nested));
        this.out.commands.push({
          kind: 'declaration',
          text: node.text,
          assignments: [],
          name: undefined,
          args,
          redirects: [],
          nested,
        });
        return;
      }
      case 'function_definition':
        this.out.constructs.add('function_definition');
        for (const child of node.namedChildren) if (child && child.type !== 'word') this.statement(child, true);
        return;
      case 'test_command': {
        this.out.constructs.add('test');
        const args: ShellWord[] = [];
        this.collectWords(node, nested, args);
        this.out.commands.push({
          kind: 'test',
          text: node.text,
          assignments: [],
          name: undefined,
          args,
          redirects: [],
          nested,
        });
        return;
      }
      default:
        if (CONTROL.has(type)) this.out.constructs.add('control_flow');
        else this.out.constructs.add(`unknown:${type}`);
        // Whatever it is, its commands still count for deny rules and for the part limit.
        for (const child of node.namedChildren) {
          if (!child) continue;
          if (isWordNode(child.type)) this.word(child, true);
          else this.statement(child, true);
        }
    }
  }

  /** Words of a `[[ … ]]` test, in order; operators kept as plain words. */
  collectWords(node: Node, nested: boolean, into: ShellWord[]): void {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (isWordNode(child.type)) into.push(this.word(child, nested));
      else if (child.type === 'test_operator') into.push({ text: child.text, value: child.text, literal: true });
      else {
        if (
          !['binary_expression', 'unary_expression', 'parenthesized_expression', 'negated_expression'].includes(
            child.type,
          )
        ) {
          this.out.constructs.add(`unknown:${child.type}`);
        }
        this.collectWords(child, nested, into);
      }
    }
  }

  command(node: Node, nested: boolean): void {
    const assignments: ShellWord[] = [];
    const args: ShellWord[] = [];
    const redirects: ShellRedirect[] = [];
    let name: ShellWord | undefined;
    const texts: string[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child || !child.isNamed) continue;
      const field = node.fieldNameForChild(i);
      if (child.type === 'variable_assignment') {
        assignments.push(this.word(child, nested));
        texts.push(child.text);
      } else if (REDIRECTS.has(child.type)) {
        redirects.push(this.redirect(child, undefined, nested));
      } else if (child.type === 'command_name') {
        const inner = child.namedChild(0);
        name = inner ? this.word(inner, nested) : { text: child.text, value: child.text, literal: true };
        texts.push(child.text);
      } else if (field === 'argument' || isWordNode(child.type)) {
        args.push(this.word(child, nested));
        texts.push(child.text);
      } else {
        this.out.constructs.add(`unknown:${child.type}`);
        this.statement(child, true);
      }
    }
    const cmd: SimpleCommand = { kind: 'command', text: texts.join(' '), assignments, name, args, redirects, nested };
    if (this.subshells > 0) cmd.subshell = true;
    if (this.conditionals > 0) cmd.conditional = true;
    this.byNode.set(node.id, cmd);
    this.out.commands.push(cmd);
  }

  redirect(node: Node, _owner: undefined, nested: boolean): ShellRedirect {
    let operator = '';
    let fd: number | undefined;
    let target: ShellWord | undefined;
    if (node.type === 'heredoc_redirect') {
      operator = '<<';
      for (const child of node.children) {
        if (!child) continue;
        if (!child.isNamed) {
          if (child.type === '<<' || child.type === '<<-') operator = child.type;
          continue;
        }
        if (child.type === 'heredoc_start' || child.type === 'heredoc_end' || child.type === 'heredoc_content')
          continue;
        // `cat <<EOF > file`: the grammar hangs the redirections after the start under it.
        if (REDIRECTS.has(child.type)) {
          this.redirect(child, undefined, nested);
          continue;
        }
        if (child.type === 'heredoc_body') {
          for (const part of child.namedChildren) {
            if (!part || part.type === 'heredoc_content') continue;
            this.out.constructs.add('heredoc_expansion');
            this.word(part, true);
          }
          continue;
        }
        // `cat <<EOF | grep x`: the rest of the pipeline hangs off the here-document.
        this.statement(child, nested);
      }
    } else {
      for (let i = 0; i < node.childCount; i++) {
        const child = node.child(i);
        if (!child) continue;
        const field = node.fieldNameForChild(i);
        if (field === 'descriptor') fd = Number(child.text);
        else if (!child.isNamed) operator += child.type;
        else if (field === 'destination' || isWordNode(child.type)) target = this.word(child, nested);
      }
    }
    if (node.type === 'heredoc_redirect') {
      const problem = heredocMismatch(node, operator === '<<-');
      if (problem) this.broken ??= problem;
    }
    const redirect: ShellRedirect = { operator, fd, target };
    this.out.redirects.push(redirect);
    return redirect;
  }

  /** A word node as the value a program would receive, noting every construct inside it. */
  word(node: Node, nested: boolean): ShellWord {
    const text = node.text;
    switch (node.type) {
      case 'word':
      case 'command_name': {
        const glob = /(^|[^\\])[*?[]/.test(text) || /[{}]/.test(text);
        return { text, value: unescapeWord(text), literal: !glob };
      }
      case 'number':
      case 'test_operator':
      case 'variable_name':
        return { text, value: text, literal: true };
      case 'raw_string':
        return { text, value: text.slice(1, -1), literal: true };
      case 'string': {
        let value = '';
        let literal = true;
        for (const child of node.namedChildren) {
          if (!child) continue;
          if (child.type === 'string_content') value += unescapeDoubleQuoted(child.text);
          else {
            const inner = this.word(child, nested);
            value += inner.value;
            literal = false;
          }
        }
        return { text, value, literal };
      }
      case 'concatenation': {
        let value = '';
        let literal = true;
        for (const child of node.namedChildren) {
          if (!child) continue;
          const inner = this.word(child, nested);
          value += inner.value;
          literal &&= inner.literal;
        }
        return { text, value, literal };
      }
      case 'simple_expansion':
        return { text, value: text, literal: false };
      case 'expansion':
        this.expansion(node);
        return { text, value: text, literal: false };
      case 'variable_assignment': {
        const value = node.childForFieldName('value');
        let literal = true;
        if (value) literal = this.word(value, nested).literal;
        return { text, value: text, literal };
      }
      case 'command_substitution':
      case 'process_substitution':
        this.out.constructs.add(node.type);
        for (const child of node.namedChildren) if (child) this.statement(child, true);
        return { text, value: text, literal: false };
      case 'arithmetic_expansion':
        this.out.constructs.add('arithmetic');
        this.visitNested(node);
        return { text, value: text, literal: false };
      case 'ansi_c_string': {
        // `$'\x72m'` is `rm` to bash: deny rules must see it so. Only escapes decoded exactly
        // make the word literal.
        const decoded = decodeAnsiC(text.slice(2, -1));
        return { text, value: decoded.value, literal: decoded.exact };
      }
      case 'translated_string': {
        // `$"…"` is looked up in a message catalog; without one it is the string itself.
        const inner = node.namedChildren.find((c) => c?.type === 'string');
        return { text, value: inner ? this.word(inner, nested).value : text, literal: false };
      }
      case 'brace_expression':
        return { text, value: text, literal: false };
      case 'array':
        this.out.constructs.add('array');
        for (const child of node.namedChildren) if (child) this.word(child, nested);
        return { text, value: text, literal: false };
      default:
        this.out.constructs.add(`unknown:${node.type}`);
        this.visitNested(node);
        return { text, value: text, literal: false };
    }
  }

  /** `${x}` is a plain expansion; anything with an operator (`${x@P}`, `${x:=y}`, `${!x}`) is not. */
  expansion(node: Node): void {
    const named = node.namedChildren.filter((c): c is Node => c !== null);
    const plain =
      named.length === 1 &&
      (named[0]!.type === 'variable_name' || named[0]!.type === 'special_variable_name') &&
      node.children.every((c) => !c || c.isNamed || c.type === '${' || c.type === '}');
    if (plain) return;
    const operators = node.children.filter((c) => c && !c.isNamed).map((c) => c!.type);
    this.out.constructs.add(operators.includes('@') ? 'prompt_expansion' : 'complex_expansion');
    this.visitNested(node);
  }

  /** Finds substitutions anywhere below a node (inside `${x:-$(cmd)}`, `$(( a[$(cmd)] ))`). */
  visitNested(node: Node): void {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'command_substitution' || child.type === 'process_substitution') this.word(child, true);
      else this.visitNested(child);
    }
  }
}

/**
 * Why bash would end a here-document elsewhere than the grammar did, or undefined when both
 * agree. bash ends it at the first line that equals the delimiter after quote removal
 * (`<<E"O"F` and `<<E\OF` end at `EOF`, leading tabs stripped for `<<-`); the grammar compares
 * the raw text (`E"O"F`), so a body line `EOF` would end bash's document early and run the
 * lines the grammar took for the body.
 */
function heredocMismatch(node: Node, stripTabs: boolean): string | undefined {
  const start = node.children.find((c) => c?.type === 'heredoc_start');
  const end = node.children.find((c) => c?.type === 'heredoc_end');
  if (!start) return 'a here-document has no delimiter';
  const delimiter = heredocDelimiter(start.text);
  if (delimiter === undefined)
    return `the here-document delimiter \`${start.text}\` is not a plain or fully quoted word, and bash may end the document elsewhere than the parser`;
  if (!end) return `the here-document \`${start.text}\` has no end line`;
  const text = node.text;
  const firstLine = text.indexOf('\n');
  if (firstLine === -1 || !text.endsWith(end.text)) return `the here-document \`${start.text}\` could not be delimited`;
  const lines = text.slice(firstLine + 1, text.length - end.text.length).split('\n');
  const endIndent = lines.pop() ?? '';
  const trim = (line: string) => (stripTabs ? line.replace(/^\t+/, '') : line);
  if (lines.some((line) => trim(line) === delimiter))
    return `bash ends the here-document \`${start.text}\` at an earlier line \`${delimiter}\` than the parser does`;
  if (end.text !== delimiter || trim(endIndent) !== '')
    return `bash does not end the here-document \`${start.text}\` where the parser does`;
  return undefined;
}

/** The delimiter bash compares body lines with: the word after quote removal; undefined when unsure. */
function heredocDelimiter(word: string): string | undefined {
  let out = '';
  const token = /'([^']*)'|"([^"\\$`]*)"|\\([^\n])|([^'"\\$`\s<>&|;()]+)/y;
  let at = 0;
  while (at < word.length) {
    token.lastIndex = at;
    const m = token.exec(word);
    if (!m) return undefined;
    out += m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
    at = token.lastIndex;
  }
  return out === '' ? undefined : out;
}

function isWordNode(type: string): boolean {
  return [
    'word',
    'string',
    'raw_string',
    'concatenation',
    'number',
    'simple_expansion',
    'expansion',
    'command_substitution',
    'process_substitution',
    'arithmetic_expansion',
    'brace_expression',
    'ansi_c_string',
    'translated_string',
    'array',
  ].includes(type);
}

const ANSI_C_SIMPLE: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/**
 * The value of a `$'…'` string's content. `exact` is false where bash could read it otherwise
 * (`\c`, `\u`, an unknown escape, a NUL that ends the string): the value is then a best effort.
 */
function decodeAnsiC(body: string): { value: string; exact: boolean } {
  let exact = true;
  let value = body.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/gs, (_, esc: string) => {
    if (esc[0] === 'x' && esc.length > 1) return String.fromCharCode(parseInt(esc.slice(1), 16));
    if (/^[0-7]/.test(esc)) return String.fromCharCode(parseInt(esc, 8) & 0xff);
    const simple = ANSI_C_SIMPLE[esc];
    if (simple !== undefined) return simple;
    exact = false;
    return `\\${esc}`;
  });
  // bash's `\xff` is one byte, not the character U+00FF.
  if (/[^\x00-\x7f]/.test(value) && /\\(x[89a-fA-F]|[2-3][0-7]{2})/.test(body)) exact = false;
  const nul = value.indexOf('\0');
  if (nul !== -1) {
    value = value.slice(0, nul);
    exact = false;
  }
  return { value, exact };
}

/** Backslash removal outside quotes: `\x` is `x`, a backslash-newline vanishes. */
function unescapeWord(text: string): string {
  return text.replace(/\\(\n|.)/g, (_, ch: string) => (ch === '\n' ? '' : ch));
}

/** Inside double quotes only `\$`, `` \` ``, `\"`, `\\` and backslash-newline are escapes. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, ch: string) => (ch === '\n' ? '' : ch));
}
