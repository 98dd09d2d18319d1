import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { makeBench } from './_test_bench.ts';

// The default python server, found on PATH as a user who ran `npm install -g pyright` has it.
const here = path.dirname(fileURLToPath(import.meta.url));
const PATH = `${path.join(here, '..', 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}`;
const source = path.join(here, 'testdata', 'python');

describe('LSP with the default Python server (pyright)', { timeout: 120_000 }, () => {
  test('the default config finds pyright-langserver on PATH and answers definition, hover and symbols', async () => {
    const b = await makeBench({ source, family: { env: { ...process.env, PATH }, timeoutMs: 60_000 } });
    try {
      const definition = await b.call({ operation: 'goToDefinition', filePath: 'app.py', line: 3, character: 7 });
      expect(definition.text).toBe(
        'Found 1 definition of the symbol at app.py:3:7:\nshapes.py:11:5: def total_area(circles: list[Circle]) -> float:',
      );
      const hover = await b.call({ operation: 'hover', filePath: 'app.py', line: 3, character: 19 });
      expect(hover.text).toContain('class Circle');
      expect(hover.text).toContain('A circle of a given radius.');
      const symbols = await b.call({ operation: 'documentSymbol', filePath: 'shapes.py' });
      expect(symbols.text).toContain('Class Circle (line 1)\n  Method __init__ (line 4)');
      expect(symbols.text).toContain('Function total_area (line 11)');
      // pyright has no implementationProvider: the call says so instead of failing obscurely.
      const implementation = await b.call({
        operation: 'goToImplementation',
        filePath: 'app.py',
        line: 3,
        character: 19,
      });
      expect(implementation.isError).toBe(true);
      expect(implementation.text).toContain(
        'The python language server ("pyright-langserver --stdio") does not support goToImplementation (it announced no implementationProvider)',
      );
    } finally {
      await b.cleanup();
    }
  });
});
