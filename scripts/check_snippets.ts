// Every ```ts block of every README and doc in the repository compiles: each block is written, as it
// stands, to examples/.snippets/ (where the examples package's dependencies resolve every @toolshed
// package and the SDKs) and type-checked with the repository's strict settings. A block must carry its
// own imports, as a reader copies it whole. Run by `pnpm test` after `pnpm build` (types come from dist).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
for (const file of markdownFiles()) {
  for (const snippet of snippetsOf(file)) {
    const name = `${file.replace(/[^a-zA-Z0-9]+/g, '_')}_L${snippet.line}.ts`;
    // `export {}` makes a block without imports a module, so top-level await and names stay its own.
    writeFileSync(path.join(out, name), `${snippet.code}\nexport {};\n`);
    written.set(name, snippet);
  }
}
writeFileSync(
  path.join(out, 'tsconfig.json'),
  JSON.stringify({
    extends: '../../tsconfig.base.json',
    compilerOptions: {
      rootDir: '.',
      noEmit: true,
      declaration: false,
      declarationMap: false,
      sourceMap: false,
      noUnusedLocals: false,
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
    `Snippet check: a TypeScript block in the docs does not compile (each block must compile as a reader copies it, with its imports):\n${mapped}`,
  );
  process.exit(1);
}
console.log(
  `Snippet check: ${written.size} TypeScript blocks in ${new Set([...written.values()].map((s) => s.file)).size} Markdown files compile`,
);
