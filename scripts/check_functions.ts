// Checks the shape of every source function (CONVENTIONS rule 4 and the house rules of docs/conventions.md):
//   - no function over 150 lines, unless a comment inside it or just above it starts with "Long because:"
//     and says why it must be;
//   - no exported function with more than two positional parameters plus an options object: a third
//     parameter must be the options (named `options`, or typed `…Options`), and there is no fourth.
// Run by `pnpm test`; prints each problem as file:line and exits 1 when there is any.
//
// It parses with the TypeScript 5 compiler API (`typescript-ast`): the workspace's own TypeScript 7 is the
// native compiler, which has no JavaScript API.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript-ast';

const root = path.resolve(import.meta.dirname, '..');
const MAX_LINES = 150;
const LONG_REASON = /(\/\/|\*)\s*Long because:/;

/** Source folders checked: every package's and the CLI's `src`, without tests, fixtures or demo data. */
const SOURCE_DIRS = [
  ...readdirSync(path.join(root, 'packages')).map((p) => path.join(root, 'packages', p, 'src')),
  path.join(root, 'apps', 'cli', 'src'),
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (['testdata', 'demo', 'node_modules'].includes(entry.name)) continue;
      out.push(...sourceFiles(full));
    } else if (
      entry.name.endsWith('.ts') &&
      !entry.name.endsWith('.d.ts') &&
      !/_test(-d)?\.ts$/.test(entry.name) &&
      !entry.name.startsWith('_test')
    ) {
      out.push(full);
    }
  }
  return out;
}

type FunctionNode = ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression;

function isFunctionNode(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

function nameOf(node: FunctionNode): string {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '(anonymous)';
}

/** An exported function: `export function f`, or `export const f = (…) =>` / `function (…)`. */
function isExported(node: FunctionNode): boolean {
  const hasExport = (n: ts.Node) =>
    ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  if (ts.isFunctionDeclaration(node)) return hasExport(node);
  const declaration = node.parent;
  if (!declaration || !ts.isVariableDeclaration(declaration)) return false;
  const statement = declaration.parent?.parent;
  return statement !== undefined && ts.isVariableStatement(statement) && hasExport(statement);
}

function isOptionsParameter(parameter: ts.ParameterDeclaration, source: ts.SourceFile): boolean {
  const name = parameter.name.getText(source);
  const type = parameter.type?.getText(source) ?? '';
  return /^(options|opts)$/i.test(name) || /Options\b/.test(type) || ts.isObjectBindingPattern(parameter.name);
}

const problems: string[] = [];
let functions = 0;
for (const file of SOURCE_DIRS.flatMap(sourceFiles)) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const where = (node: ts.Node) =>
    `${path.relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (isFunctionNode(node) && node.body) {
      functions++;
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > MAX_LINES) {
        const statement = ts.isFunctionDeclaration(node) ? node : (node.parent?.parent?.parent ?? node);
        const leading = text.slice(statement.getFullStart(), statement.getStart(source));
        const inside = text.slice(node.body.getStart(source), node.body.getEnd());
        if (!LONG_REASON.test(leading) && !LONG_REASON.test(inside)) {
          problems.push(
            `${where(node)}: ${nameOf(node)} is ${lines} lines (more than ${MAX_LINES}): split it into the parts it is made of, or say why it must be long in a comment starting "Long because:".`,
          );
        }
      }
      if (isExported(node)) {
        const params = node.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'));
        const tooMany = params.length > 3 || (params.length === 3 && !isOptionsParameter(params[2]!, source));
        if (tooMany) {
          problems.push(
            `${where(node)}: ${nameOf(node)} takes ${params.length} positional parameters (${params.map((p) => p.name.getText(source)).join(', ')}): at most two, then an options object.`,
          );
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`Function check: ${problems.length} problems in ${functions} functions`);
  process.exit(1);
}
console.log(
  `Function check: ${functions} functions, none over ${MAX_LINES} lines without a reason, no exported function with more than two positional parameters plus options`,
);
