// The public API of each workspace package, as `scripts/check_structure.ts` records it in `<package>/api.txt`:
// one line per exported name of each entry of the package's `exports` map, `<entry> <kind> <name>`, sorted.
//
// It reads the entries' sources (the `@toolshed/source` condition) with the TypeScript 5 compiler API
// (`typescript-ast`; the workspace's TypeScript 7 is the native compiler, which has no JavaScript API), one
// program for every entry, and asks the checker what each module exports, following `export *` and `as`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript-ast';

export type ApiKind = 'function' | 'class' | 'const' | 'variable' | 'enum' | 'namespace' | 'interface' | 'type';

/** One workspace package and its entries: the `exports` subpath and the source file it names. */
export interface ApiPackage {
  /** The package folder, absolute. */
  dir: string;
  name: string;
  isPrivate: boolean;
  entries: { entry: string; file: string }[];
}

export interface ApiListing {
  /** `<entry> <kind> <name>` lines, sorted. */
  lines: string[];
  /** Exports the checker could not resolve to a declaration, as `<entry> <name>`. */
  unresolved: string[];
}

export interface ApiDiff {
  added: string[];
  removed: string[];
}

export const API_FILE = 'api.txt';
const SOURCE_CONDITION = '@toolshed/source';

/** The package at `dir` with the source file of each `exports` entry (entries without a source are left out). */
export function readApiPackage(dir: string): ApiPackage {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    name: string;
    private?: boolean;
    exports?: Record<string, unknown> | string;
  };
  const exportsMap = typeof manifest.exports === 'string' ? { '.': manifest.exports } : (manifest.exports ?? {});
  const entries: ApiPackage['entries'] = [];
  for (const [entry, target] of Object.entries(exportsMap)) {
    const source =
      typeof target === 'string'
        ? target
        : target && typeof target === 'object'
          ? (target as Record<string, unknown>)[SOURCE_CONDITION]
          : undefined;
    if (typeof source === 'string' && /\.[cm]?tsx?$/.test(source))
      entries.push({ entry, file: path.resolve(dir, source) });
  }
  return { dir, name: manifest.name, isPrivate: manifest.private === true, entries };
}

/** Whether the export chain from `symbol` passes through an `export type` / `import type` (then only its type is public). */
function isTypeOnlyChain(checker: ts.TypeChecker, symbol: ts.Symbol): boolean {
  let current: ts.Symbol | undefined = symbol;
  for (let hops = 0; current && current.flags & ts.SymbolFlags.Alias && hops < 50; hops++) {
    for (const decl of current.declarations ?? []) {
      if (ts.isExportSpecifier(decl) && (decl.isTypeOnly || decl.parent.parent.isTypeOnly)) return true;
      if (ts.isImportSpecifier(decl) && (decl.isTypeOnly || decl.parent.parent.isTypeOnly)) return true;
      if (ts.isImportClause(decl) && decl.isTypeOnly) return true;
    }
    current = checker.getImmediateAliasedSymbol(current);
  }
  return false;
}

function kindOf(checker: ts.TypeChecker, exported: ts.Symbol): ApiKind | undefined {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  // An export whose module was not found resolves to the checker's `unknown` symbol, which has no declaration.
  if (!symbol.declarations?.length) return undefined;
  const f = symbol.flags;
  const hasValue = (f & ts.SymbolFlags.Value) !== 0;
  if (hasValue && isTypeOnlyChain(checker, exported)) return f & ts.SymbolFlags.Interface ? 'interface' : 'type';
  if (f & ts.SymbolFlags.Class) return 'class';
  if (f & ts.SymbolFlags.Enum) return 'enum';
  if (f & ts.SymbolFlags.Function) return 'function';
  if (f & ts.SymbolFlags.Variable) {
    const decl = symbol.valueDeclaration ?? symbol.declarations?.[0];
    return decl && ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const ? 'const' : 'variable';
  }
  if (f & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule)) return 'namespace';
  if (f & ts.SymbolFlags.Interface) return 'interface';
  if (f & ts.SymbolFlags.TypeAlias) return 'type';
  return undefined;
}

/** The API listing of every package, from one program over all their entries. */
export function listApis(packages: ApiPackage[]): Map<ApiPackage, ApiListing> {
  // Only what re-exports need is followed: the module of each `export … from`, and a file's imports when it
  // has a local `export { … }` or `export default` (which may pass an import on); relative specifiers and
  // `@toolshed/*` (through the source condition, for another package's re-exports). No lib is loaded: what a
  // module exports needs its declarations, not the types of its dependencies. That keeps the program small.
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: [SOURCE_CONDITION],
    allowImportingTsExtensions: true,
    noEmit: true,
    noLib: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const cache = ts.createModuleResolutionCache(host.getCurrentDirectory(), (f) => f, options);
  host.resolveModuleNameLiterals = (literals, containingFile, _ref, _options, containingSourceFile) => {
    const statements = containingSourceFile.statements;
    const passesImportsOn = statements.some(
      (s) => (ts.isExportDeclaration(s) && !s.moduleSpecifier) || ts.isExportAssignment(s),
    );
    // By specifier, not node: the program keeps one resolution per specifier (a dynamic `import()` of a
    // re-exported module shares it).
    const needed = new Set<string>();
    for (const s of statements)
      if (ts.isExportDeclaration(s) || (passesImportsOn && ts.isImportDeclaration(s)))
        if (s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)) needed.add(s.moduleSpecifier.text);
    return literals.map((literal) => {
      const spec = literal.text;
      if (!needed.has(spec) || !(spec.startsWith('.') || spec.startsWith('@toolshed/')))
        return { resolvedModule: undefined };
      const mode = ts.getModeForUsageLocation(containingSourceFile, literal, options);
      return ts.resolveModuleName(spec, containingFile, options, host, cache, undefined, mode);
    });
  };
  const program = ts.createProgram({
    rootNames: packages.flatMap((p) => p.entries.map((e) => e.file)),
    options,
    host,
  });
  const checker = program.getTypeChecker();
  const out = new Map<ApiPackage, ApiListing>();
  for (const pkg of packages) {
    const lines: string[] = [];
    const unresolved: string[] = [];
    for (const { entry, file } of pkg.entries) {
      const sourceFile = program.getSourceFile(file);
      const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
      if (!moduleSymbol) {
        unresolved.push(`${entry} ${existsSync(file) ? '(not a module)' : '(missing source file)'}`);
        continue;
      }
      for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
        const kind = kindOf(checker, symbol);
        if (kind) lines.push(`${entry} ${kind} ${symbol.name}`);
        else unresolved.push(`${entry} ${symbol.name}`);
      }
    }
    out.set(pkg, { lines: lines.sort(), unresolved });
  }
  return out;
}

export function apiFileHeader(packageName: string): string {
  return `# Public API of ${packageName}: checked by scripts/check_structure.ts; run pnpm api:update after a change, and add a changeset`;
}

export function formatApiFile(packageName: string, lines: string[]): string {
  return `${[apiFileHeader(packageName), ...lines].join('\n')}\n`;
}

/** The lines of an api.txt, without comments and blank lines. */
export function parseApiFile(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

export function diffApi(recorded: string[], current: string[]): ApiDiff {
  const before = new Set(recorded);
  const after = new Set(current);
  return {
    added: current.filter((l) => !before.has(l)),
    removed: recorded.filter((l) => !after.has(l)),
  };
}

const SHOWN = 20;

function listSome(label: string, lines: string[]): string {
  if (!lines.length) return '';
  const more = lines.length > SHOWN ? `, … and ${lines.length - SHOWN} more` : '';
  return ` ${label} (${lines.length}): ${lines.slice(0, SHOWN).join(', ')}${more};`;
}

/** The problem check_structure reports when a package's api.txt is not what its entries export. */
export function describeApiDiff(pkg: Pick<ApiPackage, 'name' | 'isPrivate'>, diff: ApiDiff): string {
  const advice = pkg.isPrivate
    ? 'run pnpm api:update to record the change (a private package needs no changeset)'
    : 'run pnpm api:update to record the change, and add a changeset (pnpm changeset) since the public API changed';
  return `${pkg.name}: ${API_FILE} differs from what its exports are;${listSome('added', diff.added)}${listSome('removed', diff.removed)} ${advice}`;
}
