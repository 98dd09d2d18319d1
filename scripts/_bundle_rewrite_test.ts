import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { rewriteImportMetaUrl } from './_bundle_rewrite.ts';

// An npm-style install: the app (the package being bundled) with its bundle folder, and a Toolshed
// package in node_modules whose module moves into the bundle. The rewritten module is run by Node
// from the bundle's folder, so what it prints is what `import.meta.url` really becomes there.
let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolshed-bundle-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string): string {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  return full;
}

/** Runs `text`, placed at `app/dist/bundle/chunk.js`, and returns what it prints. */
function runInBundle(text: string): string {
  const chunk = write('app/dist/bundle/chunk.js', text);
  return execFileSync(process.execPath, [chunk], { cwd: root, encoding: 'utf8' }).trim();
}

const MODULE = 'console.log(import.meta.url);';

describe('rewriteImportMetaUrl', () => {
  beforeEach(() => {
    write('app/package.json', JSON.stringify({ name: '@toolshed/cli', type: 'module' }));
    write(
      'node_modules/@toolshed/fam/package.json',
      JSON.stringify({ name: '@toolshed/fam', type: 'module', exports: { '.': { import: './dist/mod.js' } } }),
    );
    write('node_modules/@toolshed/fam/dist/mod.js', 'export {};');
  });

  test("a module of another Toolshed package gets the URL of its installed file, found through the package's entry", () => {
    const file = path.join(root, 'node_modules/@toolshed/fam/dist/sub/thing.js');
    const text = rewriteImportMetaUrl(MODULE, {
      file,
      packageDir: path.join(root, 'node_modules/@toolshed/fam'),
      packageName: '@toolshed/fam',
      bundlingPackage: '@toolshed/cli',
      outDir: path.join(root, 'app/dist/bundle'),
      mainEntry: 'dist/mod.js',
    });
    expect(runInBundle(text)).toBe(pathToFileURL(file).href);
  });

  test("the bundled package's own module gets the URL of its file beside the bundle, from a sub-folder too", () => {
    const file = path.join(root, 'app/dist/demo/sample_repo.js');
    const text = rewriteImportMetaUrl(`${MODULE} console.log(new URL('../../demo/', import.meta.url).href);`, {
      file,
      packageDir: path.join(root, 'app'),
      packageName: '@toolshed/cli',
      bundlingPackage: '@toolshed/cli',
      outDir: path.join(root, 'app/dist/bundle'),
      mainEntry: 'dist/mod.js',
    });
    expect(runInBundle(text).split('\n')).toEqual([
      pathToFileURL(file).href,
      pathToFileURL(path.join(root, 'app/demo/')).href,
    ]);
  });

  test('a use inside a string still parses (only its text changes)', () => {
    const text = rewriteImportMetaUrl(`${MODULE} console.log("import.meta.url", 'import.meta.url');`, {
      file: path.join(root, 'app/dist/x.js'),
      packageDir: path.join(root, 'app'),
      packageName: '@toolshed/cli',
      bundlingPackage: '@toolshed/cli',
      outDir: path.join(root, 'app/dist/bundle'),
      mainEntry: 'dist/mod.js',
    });
    expect(runInBundle(text).split('\n')[0]).toBe(pathToFileURL(path.join(root, 'app/dist/x.js')).href);
  });

  test('a module without import.meta.url is left as it is; a property named like it is not touched', () => {
    const from = {
      file: path.join(root, 'node_modules/@toolshed/fam/dist/a.js'),
      packageDir: path.join(root, 'node_modules/@toolshed/fam'),
      packageName: '@toolshed/fam',
      bundlingPackage: '@toolshed/cli',
      outDir: path.join(root, 'app/dist/bundle'),
      mainEntry: 'dist/mod.js',
    };
    expect(rewriteImportMetaUrl('export const a = 1;', from)).toBe('export const a = 1;');
    for (const text of ['x.import.meta.urls = 1;', 'x.import.meta.url = 1;'])
      expect(rewriteImportMetaUrl(text, from)).toBe(text);
  });
});
