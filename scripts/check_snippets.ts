// Every ```ts block of every README and doc, and of every JSDoc comment in the non-test sources of
// packages/* and apps/cli, compiles: each block is written, as it stands, to examples/.snippets/ (where
// the examples package's dependencies resolve every @toolshed package and the SDKs) and all of them are
// type-checked as one program with the repository's strict settings. A block must carry its own imports,
// as a reader copies it whole: a doc comment's example imports the package by name (`@toolshed/core`),
// or, for a helper no entry exports, the module beside it by relative path (`./_unwrap.ts`), which the
// check points at the source file. Run by `pnpm test`; package names resolve to their sources (the `@toolshed/source` condition).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'examples', '.snippets');

/** One fenced TypeScript block: where it stands and what it says. */
interface Snippet {
  file: string;
  line: number;
  code: string;
}

function markdownFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
    cwd: root,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter(
      (f) =>
        f &&
        !f.includes('CHANGELOG') &&
        !f.startsWith('.changeset/') &&
        !f.includes('/testdata/') &&
        !f.includes('/data/'),
    );
}

/** Non-test TypeScript sources of packages/* and apps/cli, whose doc comments hold examples. */
function sourceFiles(): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', 'packages/*/src/*.ts', 'apps/cli/src/*.ts'],
    { cwd: root, encoding: 'utf8' },
  );
  return listed
    .split('\n')
    .filter(
      (f) =>
        f && existsSync(path.join(root, f)) && !/_test(-d)?\.ts$/.test(f) && !/\/(_test_[^/]*|testdata\/.*)$/.test(f),
    );
}

const FENCE_OPEN = /^\s*```(ts|typescript)\s*$/;
const FENCE_CLOSE = /^\s*```\s*$/;

/**
 * The ```ts blocks of the JSDoc comments of one source file. Inside a comment `*\/` is written `*\\/`
 * (a glob such as `'**\\/*.ts'`), so the block gets its `*\/` back; a relative import is pointed at the
 * source file it names, from the snippet directory.
 */
function docSnippetsOf(file: string): Snippet[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const found: Snippet[] = [];
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const firstLine = text.slice(0, comment.index).split('\n').length;
    const lines = comment[0].split('\n').map((l) => l.replace(/^\s*\/?\*\*?\s?/, '').replace(/\s*\*\/$/, ''));
    for (let i = 0; i < lines.length; i++) {
      if (!FENCE_OPEN.test(lines[i]!)) continue;
      const start = i + 1;
      let end = start;
      while (end < lines.length && !FENCE_CLOSE.test(lines[end]!)) end++;
      const code = lines
        .slice(start, end)
        .join('\n')
        .replaceAll('*\\/', '*/')
        .replace(
          /((?:from|import)\s*\(?\s*)(['"])(\.\.?\/[^'"]+)\2/g,
          (_whole, lead: string, quote: string, spec: string) => {
            const target = path
              .relative(out, path.resolve(root, path.dirname(file), spec))
              .split(path.sep)
              .join('/');
            return `${lead}${quote}${target.startsWith('.') ? target : `./${target}`}${quote}`;
          },
        );
      found.push({ file, line: firstLine + start, code });
      i = end;
    }
  }
  return found;
}

function snippetsOf(file: string): Snippet[] {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const found: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++;
    found.push({ file, line: start + 1, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return found;
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const written = new Map<string, Snippet>();
const snippets = [...markdownFiles().flatMap(snippetsOf), ...sourceFiles().flatMap(docSnippetsOf)];
for (const snippet of snippets) {
  const name = `${snippet.file.replace(/[^a-zA-Z0-9]+/g, '_')}_L${snippet.line}.ts`;
  // `export {}` makes a block without imports a module, so top-level await and names stay its own.
  writeFileSync(path.join(out, name), `${snippet.code}\nexport {};\n`);
  written.set(name, snippet);
}
writeFileSync(
  path.join(out, 'tsconfig.json'),
  JSON.stringify({
    extends: '../../tsconfig.base.json',
    compilerOptions: {
      noEmit: true,
      declaration: false,
      declarationMap: false,
      sourceMap: false,
      noUnusedLocals: false,
      // Relative imports reach the sources of packages/*/src and apps/cli/src; package names resolve to
      // the same sources (not dist), so a type imported both ways is one type.
      rootDir: '../..',
      customConditions: ['@toolshed/source'],
      // The MCP SDK is the bridge's dependency, not the examples package's: an example that makes a
      // client or a transport imports it as the bridge's users do, and gets the bridge's copy.
      paths: {
        '@modelcontextprotocol/sdk/*': ['../../packages/mcp-bridge/node_modules/@modelcontextprotocol/sdk/dist/esm/*'],
      },
    },
    include: ['*.ts'],
  }),
);
const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
let report = '';
try {
  execFileSync(tsc, ['-p', path.join(out, 'tsconfig.json')], {
    cwd: path.join(root, 'examples'),
    encoding: 'utf8',
    stdio: 'pipe',
  });
} catch (error) {
  const e = error as { stdout?: string; stderr?: string };
  report = `${e.stdout ?? ''}${e.stderr ?? ''}`;
}
if (report.trim()) {
  // Map "examples/.snippets/<name>(line,col)" back to the Markdown file and line.
  const mapped = report.replace(
    /(?:[^\s]*\.snippets\/)?([A-Za-z0-9_]+_L\d+\.ts)\((\d+),(\d+)\)|(?:[^\s]*\.snippets\/)?([A-Za-z0-9_]+_L\d+\.ts):(\d+):(\d+)/g,
    (whole, a, l1, c1, b, l2, c2) => {
      const snippet = written.get(a ?? b);
      if (!snippet) return whole;
      return `${snippet.file}:${snippet.line + Number(l1 ?? l2) - 1}:${c1 ?? c2}`;
    },
  );
  console.error(
    `Snippet check: a TypeScript block in the docs or a doc comment does not compile (each block must compile as a reader copies it, with its imports):\n${mapped}`,
  );
  process.exit(1);
}
console.log(
  `Snippet check: ${written.size} TypeScript blocks in ${new Set([...written.values()].map((s) => s.file)).size} Markdown and source files compile`,
);
