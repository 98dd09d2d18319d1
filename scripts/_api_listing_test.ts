import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeApiDiff, diffApi, formatApiFile, listApis, parseApiFile, readApiPackage } from './_api_listing.ts';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'api-listing-'));
  mkdirSync(path.join(dir, 'src', 'testing'), { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: '@toolshed/fake',
      exports: {
        '.': { '@toolshed/source': './src/mod.ts', import: './dist/mod.js' },
        './testing': { '@toolshed/source': './src/testing/mod.ts', import: './dist/testing/mod.js' },
      },
    }),
  );
  writeFileSync(
    path.join(dir, 'src', 'impl.ts'),
    [
      'export function build(): number { return 1; }',
      'export const LIMIT = 3;',
      'export type Shape = { a: number };',
      'export interface Options { b?: string }',
      'export class Widget {}',
      'export function internalName(): void {}',
    ].join('\n'),
  );
  writeFileSync(path.join(dir, 'src', 'more.ts'), 'export const extra = 1;\nexport enum Mode { A }\n');
  writeFileSync(path.join(dir, 'src', 'testing', 'mod.ts'), 'export function checkFake(): void {}\n');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function writeMod(text: string): void {
  writeFileSync(path.join(dir, 'src', 'mod.ts'), text);
}

function lines(): string[] {
  const pkg = readApiPackage(dir);
  const listing = listApis([pkg]).get(pkg)!;
  expect(listing.unresolved).toEqual([]);
  return listing.lines;
}

describe('listApis', () => {
  it('lists each entry with the kind of the declaration, the exported name of an `as`, and follows export *', () => {
    writeMod(
      [
        "export { build, LIMIT, type Shape, internalName as publicName } from './impl.ts';",
        "export type { Options, Widget } from './impl.ts';",
        "export * from './more.ts';",
        'export const local = 2;',
      ].join('\n'),
    );
    expect(lines()).toEqual([
      '. const LIMIT',
      '. const extra',
      '. const local',
      '. enum Mode',
      '. function build',
      '. function publicName',
      '. interface Options',
      '. type Shape',
      // A class exported with `export type` is a type to its users.
      '. type Widget',
      './testing function checkFake',
    ]);
  });

  it('reports a name added to mod.ts as added and a removed one as removed', () => {
    writeMod("export { build, LIMIT } from './impl.ts';\n");
    const recorded = lines();
    writeMod("export { build, type Shape } from './impl.ts';\n");
    const diff = diffApi(recorded, lines());
    expect(diff).toEqual({ added: ['. type Shape'], removed: ['. const LIMIT'] });
    const problem = describeApiDiff({ name: '@toolshed/fake', isPrivate: false }, diff);
    expect(problem).toContain('@toolshed/fake');
    expect(problem).toContain('added (1): . type Shape');
    expect(problem).toContain('removed (1): . const LIMIT');
    expect(problem).toContain('add a changeset (pnpm changeset) since the public API changed');
  });

  it('names an export whose declaration is not found as unresolved', () => {
    writeMod("export { nothing } from './impl.ts';\n");
    const pkg = readApiPackage(dir);
    expect(listApis([pkg]).get(pkg)!.unresolved).toEqual(['. nothing']);
  });
});

describe('api.txt', () => {
  it('reads back what it writes, without the header', () => {
    const text = formatApiFile('@toolshed/fake', ['. function build', '. type Shape']);
    expect(text.split('\n')[0]).toMatch(/^# Public API of @toolshed\/fake: .*pnpm api:update/);
    expect(parseApiFile(text)).toEqual(['. function build', '. type Shape']);
  });

  it('shows at most 20 added names, with the count', () => {
    const added = Array.from({ length: 25 }, (_, i) => `. const n${String(i).padStart(2, '0')}`);
    const problem = describeApiDiff({ name: '@toolshed/fake', isPrivate: false }, { added, removed: [] });
    expect(problem).toContain('added (25):');
    expect(problem).toContain('. const n19, … and 5 more');
    expect(problem).not.toContain('n20');
  });
});
