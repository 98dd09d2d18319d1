import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type LspBench, makeBench } from './_test_bench.ts';

// One real typescript-language-server for the read-only tests (starting one takes seconds).
let bench: LspBench;
beforeAll(async () => {
  bench = await makeBench();
}, 120_000);
afterAll(async () => {
  await bench?.cleanup();
});

/** Writes a file the way Edit and Write do: a temp file renamed over it. */
async function editFile(file: string, change: (text: string) => string): Promise<void> {
  const text = await readFile(file, 'utf8');
  const temp = `${file}.tmp-edit`;
  await writeFile(temp, change(text));
  await rename(temp, file);
}

describe('LSP against the real typescript-language-server', { timeout: 120_000 }, () => {
  test('goToDefinition follows an import to the declaration in another file, with its line', async () => {
    const { text, isError } = await bench.call({
      operation: 'goToDefinition',
      filePath: 'src/main.ts',
      line: 5,
      character: 37,
    });
    expect(isError).toBe(false);
    expect(text).toBe(
      'Found 1 definition of the symbol at src/main.ts:5:37:\nsrc/math.ts:13:17: export function add(a: number, b: number): number {',
    );
  });

  test('findReferences lists every use across files as path:line:col with the line', async () => {
    const { text } = await bench.call({
      operation: 'findReferences',
      filePath: 'src/math.ts',
      line: 13,
      character: 17,
    });
    expect(text).toBe(
      [
        'Found 3 references in 2 files to the symbol at src/math.ts:13:17:',
        "src/main.ts:1:10: import { add, Square, type Shape } from './math.ts';",
        'src/main.ts:5:37: for (const shape of shapes) sum = add(sum, shape.area());',
        'src/math.ts:13:17: export function add(a: number, b: number): number {',
      ].join('\n'),
    );
  });

  test('findReferences is paged like Grep: head_limit and offset, with how to continue', async () => {
    const first = await bench.call({
      operation: 'findReferences',
      filePath: 'src/math.ts',
      line: 13,
      character: 17,
      head_limit: 2,
    });
    expect(first.text.split('\n').slice(1, 3)).toEqual([
      "src/main.ts:1:10: import { add, Square, type Shape } from './math.ts';",
      'src/main.ts:5:37: for (const shape of shapes) sum = add(sum, shape.area());',
    ]);
    expect(first.text).toContain('More results exist: continue with offset=2.');
    const rest = await bench.call({
      operation: 'findReferences',
      filePath: 'src/math.ts',
      line: 13,
      character: 17,
      head_limit: 2,
      offset: 2,
    });
    expect(rest.text).toContain('src/math.ts:13:17: export function add');
    expect(rest.text).not.toContain('More results exist');
  });

  test('hover gives the type and the doc comment as Markdown', async () => {
    const { text } = await bench.call({ operation: 'hover', filePath: 'src/main.ts', line: 5, character: 37 });
    expect(text).toContain('Hover at src/main.ts:5:37:');
    expect(text).toContain('```typescript\n(alias) add(a: number, b: number): number');
    expect(text).toContain('Adds two numbers.');
  });

  test('documentSymbol gives an indented outline in source order', async () => {
    const { text } = await bench.call({ operation: 'documentSymbol', filePath: 'src/math.ts' });
    expect(text).toBe(
      [
        '7 symbols in src/math.ts:',
        'Interface Shape (line 1)',
        '  Method area (line 2)',
        'Class Square (line 5)',
        '  Constructor constructor (line 6)',
        '  Property side (line 6)',
        '  Method area (line 7)',
        'Function add (line 13)',
      ].join('\n'),
    );
  });

  test('workspaceSymbol finds a symbol by name across the project, by query or by the word at the position', async () => {
    const byQuery = await bench.call({ operation: 'workspaceSymbol', filePath: 'src/main.ts', query: 'Square' });
    expect(byQuery.text).toContain(
      'Found 1 symbol matching "Square":\nClass Square — src/math.ts:5:1: export class Square implements Shape {',
    );
    const byWord = await bench.call({ operation: 'workspaceSymbol', filePath: 'src/main.ts', line: 10, character: 10 });
    expect(byWord.text).toContain('matching "total"');
    expect(byWord.text).toContain('Function total — src/main.ts:3:');
  });

  test('goToImplementation finds the class that implements an interface', async () => {
    const { text } = await bench.call({
      operation: 'goToImplementation',
      filePath: 'src/math.ts',
      line: 1,
      character: 18,
    });
    expect(text).toBe(
      'Found 1 implementation of the symbol at src/math.ts:1:18:\nsrc/math.ts:5:14: export class Square implements Shape {',
    );
  });

  test('the call hierarchy: the item, its callers with call sites, and what it calls', async () => {
    const item = await bench.call({
      operation: 'prepareCallHierarchy',
      filePath: 'src/main.ts',
      line: 3,
      character: 17,
    });
    expect(item.text).toBe(
      '1 call hierarchy item at src/main.ts:3:17:\nFunction total — src/main.ts:3:17: export function total(shapes: Shape[]): number {',
    );
    const incoming = await bench.call({ operation: 'incomingCalls', filePath: 'src/main.ts', line: 3, character: 17 });
    expect(incoming.text).toBe(
      [
        'Found 1 caller of total:',
        'Function main — src/main.ts:9:17: export function main(): number {',
        '  called at src/main.ts:10:10: return total([new Square(2), new Square(3)]);',
      ].join('\n'),
    );
    const outgoing = await bench.call({ operation: 'outgoingCalls', filePath: 'src/main.ts', line: 3, character: 17 });
    expect(outgoing.text).toContain('Found 2 functions called by total:');
    expect(outgoing.text).toContain(
      'Function add — src/math.ts:13:17: export function add(a: number, b: number): number {',
    );
    expect(outgoing.text).toContain('Method area — src/math.ts:2:3: area(): number;');
  });

  test('calls in one batch run in parallel on the one server and each gets its own answer', async () => {
    const blocks = [
      { operation: 'goToDefinition', filePath: 'src/main.ts', line: 5, character: 37 },
      { operation: 'documentSymbol', filePath: 'src/main.ts' },
      { operation: 'hover', filePath: 'src/main.ts', line: 10, character: 10 },
    ].map((input, i) => ({ type: 'tool_use' as const, id: `p${i}`, name: 'LSP', input }));
    const results = await bench.session.run(blocks);
    expect(results.map((r) => r.is_error ?? false)).toEqual([false, false, false]);
    expect(String(results[0]!.content)).toContain('src/math.ts:13:17:');
    expect(String(results[1]!.content)).toContain('Function total (line 3)');
    expect(String(results[2]!.content)).toContain('function total(shapes: Shape[]): number');
  });

  test('a position that is not on a name says so, with the line, instead of an empty answer', async () => {
    const { text, isError } = await bench.call({
      operation: 'goToDefinition',
      filePath: 'src/main.ts',
      line: 4,
      character: 1,
    });
    expect(isError).toBe(false);
    expect(text).toBe(
      'No definition found for the symbol at src/main.ts:4:1 (the position is not on a name: line 4 is "  let sum = 0;"; put character on the symbol\'s name, 1-based).',
    );
  });

  test('bad input is refused with what was wrong: no position, a missing file, an unserved extension, a line past the end', async () => {
    const noPosition = await bench.call({ operation: 'hover', filePath: 'src/main.ts' });
    expect(noPosition).toMatchObject({ isError: true });
    expect(noPosition.text).toContain(
      'hover needs line and character (1-based, as editors show them) of the symbol in "src/main.ts"; got no line and no character.',
    );
    const missing = await bench.call({ operation: 'documentSymbol', filePath: 'src/nope.ts' });
    expect(missing.text).toContain('File does not exist: "src/nope.ts"');
    await writeFile(path.join(bench.dir, 'notes.md'), '# notes\n');
    const unserved = await bench.call({ operation: 'documentSymbol', filePath: 'notes.md' });
    expect(unserved.text).toContain(
      'No language server is configured for "notes.md" (extension ".md"). Configured: typescript: .ts .tsx .js; python: .py .pyi.',
    );
    const pastEnd = await bench.call({ operation: 'hover', filePath: 'src/main.ts', line: 400, character: 1 });
    expect(pastEnd.isError).toBe(true);
    expect(pastEnd.text).toContain('line 400 is past the end of "src/main.ts", which has 12 lines.');
    const zeroBased = await bench.call({ operation: 'hover', filePath: 'src/main.ts', line: 0, character: 0 });
    expect(zeroBased.isError).toBe(true);
    expect(zeroBased.text).toContain('line');
  });
});

describe('LSP sees edits made on disk', { timeout: 120_000 }, () => {
  test('an Edit of the file asked about and of a definition target is seen by the next request', async () => {
    const b = await makeBench();
    try {
      const before = await b.call({ operation: 'goToDefinition', filePath: 'src/main.ts', line: 5, character: 37 });
      expect(before.text).toContain('src/math.ts:13:17:');
      // The target moves two lines down; the caller gains a line above the call.
      await editFile(path.join(b.dir, 'src/math.ts'), (t) => `// first\n// second\n${t}`);
      await editFile(path.join(b.dir, 'src/main.ts'), (t) =>
        t.replace('let sum = 0;', 'let sum = 0;\n  sum = add(sum, 1);'),
      );
      const after = await b.call({ operation: 'goToDefinition', filePath: 'src/main.ts', line: 5, character: 9 });
      expect(after.isError).toBe(false);
      expect(after.text).toBe(
        'Found 1 definition of the symbol at src/main.ts:5:9:\nsrc/math.ts:15:17: export function add(a: number, b: number): number {',
      );
      const refs = await b.call({ operation: 'findReferences', filePath: 'src/math.ts', line: 15, character: 17 });
      expect(refs.text).toContain('Found 4 references in 2 files');
    } finally {
      await b.cleanup();
    }
  });
});

describe('LSP and the path guard', { timeout: 120_000 }, () => {
  test('a definition outside the working directories is a location without its text, unless Read would be allowed there', async () => {
    const setUp = async (b: LspBench) => {
      const outside = path.join(path.dirname(b.dir), 'shared');
      await mkdir(outside);
      await writeFile(path.join(outside, 'lib.ts'), 'export function secretHelper(): number {\n  return 42;\n}\n');
      await writeFile(
        path.join(b.dir, 'src/use.ts'),
        "import { secretHelper } from '../../shared/lib.ts';\nexport const n = secretHelper();\n",
      );
      return outside;
    };
    const b = await makeBench({ subdir: 'app' });
    try {
      const outside = await setUp(b);
      const { text } = await b.call({ operation: 'goToDefinition', filePath: 'src/use.ts', line: 2, character: 18 });
      expect(text).toBe(
        `Found 1 definition of the symbol at src/use.ts:2:18:\n${outside}/lib.ts:1:17 (text not shown: reading this file would need permission)`,
      );
      expect(text).not.toContain('secretHelper(): number');
    } finally {
      await b.cleanup();
    }
    const allowed = await makeBench({
      subdir: 'app',
      permissions: (root) => ({ allow: [`Read(/${root}/shared/**)`] }),
    });
    try {
      const outside = await setUp(allowed);
      const { text } = await allowed.call({
        operation: 'goToDefinition',
        filePath: 'src/use.ts',
        line: 2,
        character: 18,
      });
      expect(text).toBe(
        `Found 1 definition of the symbol at src/use.ts:2:18:\n${outside}/lib.ts:1:17: export function secretHelper(): number {`,
      );
    } finally {
      await allowed.cleanup();
    }
  });

  test('references in a file a Read deny rule covers are left out, and counted', async () => {
    const b = await makeBench({ permissions: { deny: ['Read(./src/secret.ts)'] } });
    try {
      await writeFile(
        path.join(b.dir, 'src/secret.ts'),
        "import { add } from './math.ts';\nexport const key = add(40, 2);\n",
      );
      const { text } = await b.call({ operation: 'findReferences', filePath: 'src/math.ts', line: 13, character: 17 });
      expect(text).not.toContain('secret.ts');
      expect(text).toContain('(2 results in files the permission rules deny were left out.)');
      expect(text).toContain('src/main.ts:5:37:');
      const denied = await b.call({ operation: 'documentSymbol', filePath: 'src/secret.ts' });
      expect(denied.isError).toBe(true);
      expect(denied.text).toContain('Read(./src/secret.ts)');
    } finally {
      await b.cleanup();
    }
  });

  test('hover does not quote a symbol whose definition is in a file a Read deny rule covers', async () => {
    const b = await makeBench({ permissions: { deny: ['Read(./src/secret.ts)'] } });
    try {
      await writeFile(
        path.join(b.dir, 'src/secret.ts'),
        "/** The live key. */\nexport const API_KEY = 'sk-live-123';\n",
      );
      await writeFile(
        path.join(b.dir, 'src/client.ts'),
        "import { API_KEY } from './secret.ts';\nexport const header = `Bearer ${API_KEY}`;\n",
      );
      const hover = await b.call({ operation: 'hover', filePath: 'src/client.ts', line: 2, character: 35 });
      expect(hover.text).not.toContain('sk-live-123');
      expect(hover.text).not.toContain('The live key');
      expect(hover.isError).toBe(true);
      expect(hover.text).toContain('is defined in a file the permission rules deny');
      const ordinary = await b.call({ operation: 'hover', filePath: 'src/main.ts', line: 5, character: 37 });
      expect(ordinary.text).toContain('(alias) add(a: number, b: number): number');
    } finally {
      await b.cleanup();
    }
  });

  test('a file outside the working directories is not asked about without permission', async () => {
    const b = await makeBench({ subdir: 'app' });
    try {
      const outside = path.join(path.dirname(b.dir), 'other.ts');
      await writeFile(outside, 'export const x = 1;\n');
      const { text, isError } = await b.call({ operation: 'documentSymbol', filePath: outside });
      expect(isError).toBe(true);
      expect(text).toContain('Read(/');
    } finally {
      await b.cleanup();
    }
  });
});
