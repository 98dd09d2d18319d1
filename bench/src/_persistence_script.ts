/** One call of the scripted session: a tool and its input, as a model would send it. */
export interface ScriptedCall {
  name: string;
  input: Record<string, unknown>;
}

/** The MCP-like tool of the script: a documentation server returning large text. */
export const MCP_DOC_TOOL = 'mcp__docs__get_document';

const grep = (pattern: string, extra: Record<string, unknown> = {}): ScriptedCall => ({
  name: 'Grep',
  input: { pattern, ...extra },
});
const content = (pattern: string, extra: Record<string, unknown> = {}) =>
  grep(pattern, { output_mode: 'content', head_limit: 0, ...extra });
const bash = (command: string): ScriptedCall => ({ name: 'Bash', input: { command, timeout: 600_000 } });
const read = (file_path: string, extra: Record<string, unknown> = {}): ScriptedCall => ({
  name: 'Read',
  input: { file_path, ...extra },
});
const glob = (pattern: string, path?: string): ScriptedCall => ({
  name: 'Glob',
  input: path ? { pattern, path } : { pattern },
});
const doc = (name: string, extra: Record<string, unknown> = {}): ScriptedCall => ({
  name: MCP_DOC_TOOL,
  input: { name, ...extra },
});

/**
 * The scripted session of the result_persistence suite over the `typescript` package (see
 * `_persistence_corpus.ts`): 50 calls in 17 turns, as an agent exploring a large code base makes
 * them — orientation with Glob and files-mode Grep, content-mode Grep over the compiler and the
 * lib files (small to very large), big Reads, `git log -p` between two releases, a failing type
 * check and a `node --test` run, and an MCP documentation server returning large text. Parallel
 * turns batch read-only calls, so the 200 000-character turn budget comes into play.
 *
 * @example
 * ```ts
 * for (const turn of SCRIPTED_TURNS) await session.run(turn.map(toBlock));
 * ```
 */
export const SCRIPTED_TURNS: readonly (readonly ScriptedCall[])[] = [
  [glob('**/*.d.ts'), glob('lib/*.js'), bash('git log --oneline --stat | head -50'), read('package.json')],
  [grep('interface Promise'), grep('createProgram', { output_mode: 'count' }), read('README.md')],
  [content('function createProgram\\(', { '-C': 3 }), content('interface \\w+EventMap', { path: 'lib/lib.dom.d.ts' })],
  [read('lib/typescript.d.ts'), read('lib/typescript.d.ts', { offset: 2001, limit: 2000 })],
  [content('^\\s+readonly \\w+: number;', { path: 'lib/lib.dom.d.ts' })],
  [
    bash('git log -p -- lib/lib.es2015.iterable.d.ts lib/lib.es2015.collection.d.ts'),
    bash('git diff HEAD~1 --stat | tail -40'),
  ],
  [
    content('Diagnostics\\.\\w+_\\d+', { path: 'lib/_tsc.js', head_limit: 400 }),
    content('isolatedDeclarations', { '-n': true }),
  ],
  [read('lib/lib.es5.d.ts'), read('lib/lib.es5.d.ts', { offset: 2001 })],
  [bash('node lib/tsc.js --noEmit --strict --target es2022 bench-tests/broken.ts'), bash('node --test bench-tests/')],
  [doc('lib.dom.d.ts'), doc('diagnosticMessages', { locale: 'de' })],
  [
    content('TODO|FIXME|HACK'),
    grep('function \\w+\\(', { output_mode: 'content', path: 'lib/typescript.d.ts', head_limit: 0 }),
  ],
  [bash('git log -p --stat -- lib/lib.dom.d.ts'), glob('**/*.json')],
  [content('_50\\d\\d"', { path: 'lib/de' }), content('/\\* ES20\\d\\d \\*/', { path: 'lib/typescript.js' })],
  [
    read('lib/lib.dom.d.ts', { offset: 10_000, limit: 1_500 }),
    read('lib/_tsc.js', { offset: 1, limit: 2000 }),
    read('lib/_tsc.js', { offset: 50_000, limit: 800 }),
  ],
  [
    grep('interface \\w+Host\\b', { output_mode: 'files_with_matches' }),
    content('function \\w+Diagnostic\\w*\\(', { path: 'lib/typescript.js' }),
    doc('lib.es5.d.ts'),
    doc('typescript.d.ts', { section: 'namespace ts' }),
  ],
  [
    bash('node lib/tsc.js --noEmit --listFiles --target es2022 --lib es2022,dom bench-tests/broken.ts | tail -200'),
    bash('git show --stat HEAD'),
    content('@deprecated', { '-A': 2 }),
    read('lib/lib.es2015.promise.d.ts'),
    read('lib/lib.es2020.intl.d.ts'),
    grep('WeakRef', { output_mode: 'count' }),
    content('\\bSymbol\\.iterator\\b', { path: 'lib' }),
    glob('lib/*/diagnosticMessages.generated.json'),
    read('bench-tests/broken.ts'),
    content('interface Array<T>', { '-A': 40 }),
    bash('wc -l lib/*.js | sort -n | tail -20'),
  ],
  [
    content('function create\\w+\\(', { path: 'lib/typescript.d.ts' }),
    bash('ls -la lib'),
    grep('TypeChecker', { output_mode: 'files_with_matches' }),
    read('lib/lib.es2022.array.d.ts'),
  ],
];

/**
 * One turn of each kind, for `--quick`: orientation, content Grep, two big Reads, `git log -p`,
 * large Greps, test runs, MCP documents.
 */
export const QUICK_TURNS: readonly (readonly ScriptedCall[])[] = [0, 2, 3, 5, 6, 8, 9].map((i) => SCRIPTED_TURNS[i]!);
