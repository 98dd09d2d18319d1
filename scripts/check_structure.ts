// The house rules a script can keep (CONVENTIONS.md rule 9): run by `pnpm test`.
//   1. A family imports `@toolshed/core` only, never another family.
//   2. Core imports no family, no MCP SDK, no CLI library.
//   3. Every workspace package has `src/mod.ts` and no `index.ts`; its manifest has an exports map.
//   4. Every name `mod.ts` exports exists in the module it names.
//   5. The READMEs' integrator examples are the ones `pnpm typecheck` checks.
//   6. Each package's `api.txt` lists what its `exports` entries export (`_api_listing.ts`);
//      `--update-api` (`pnpm api:update`) rewrites every api.txt instead, and exits 0.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  API_FILE,
  describeApiDiff,
  diffApi,
  formatApiFile,
  listApis,
  parseApiFile,
  readApiPackage,
} from './_api_listing.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FAMILY = /^@toolshed\/(tool-[a-z-]+|mcp-bridge|toolsearch)(\/|$)/;
const CORE_FORBIDDEN = [
  FAMILY,
  /^@modelcontextprotocol\//,
  /^(commander|yargs|cac|citty|meow|clipanion|oclif|@oclif\/.*|ink)$/,
];
const problems: string[] = [];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(name)) out.push(full);
  }
  return out;
}

/** The code without comments, so examples in doc comments are not taken for imports. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/** Module specifiers of static imports, re-exports and dynamic imports. */
function importsOf(text: string): string[] {
  const specs: string[] = [];
  const re =
    /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const m of text.matchAll(re)) specs.push((m[1] ?? m[2] ?? m[3])!);
  return specs;
}

const updateApi = process.argv.includes('--update-api');
const packages = [
  ...readdirSync(path.join(root, 'packages')).map((d) => path.join('packages', d)),
  ...readdirSync(path.join(root, 'apps')).map((d) => path.join('apps', d)),
].filter((d) => existsSync(path.join(root, d, 'package.json')));

for (const dir of packages) {
  const abs = path.join(root, dir);
  const manifest = JSON.parse(readFileSync(path.join(abs, 'package.json'), 'utf8')) as {
    name: string;
    exports?: unknown;
  };
  const name = manifest.name;
  if (!existsSync(path.join(abs, 'src', 'mod.ts')))
    problems.push(`${dir}: src/mod.ts is missing (CONVENTIONS.md rule 1)`);
  if (!manifest.exports) problems.push(`${dir}/package.json: no "exports" map (CONVENTIONS.md rule 7)`);
  const files = existsSync(path.join(abs, 'src')) ? sourceFiles(path.join(abs, 'src')) : [];
  for (const file of files) {
    const rel = path.relative(root, file);
    if (/^index\.(ts|js)$/.test(path.basename(file))) problems.push(`${rel}: entries are named mod.ts, not index.ts`);
    const isTest = /_test\.ts$/.test(file) || file.includes(`${path.sep}testdata${path.sep}`);
    for (const spec of importsOf(stripComments(readFileSync(file, 'utf8')))) {
      if (name === '@toolshed/core') {
        if (!isTest && CORE_FORBIDDEN.some((re) => re.test(spec)))
          problems.push(`${rel}: core imports "${spec}" (DESIGN.md rule 2: no family, MCP SDK or CLI library)`);
      } else if (FAMILY.test(name) && FAMILY.test(spec) && !spec.startsWith(`${name}/`) && spec !== name) {
        problems.push(
          `${rel}: family ${name} imports "${spec}" (DESIGN.md rule 1: families import @toolshed/core only)`,
        );
      }
    }
  }
  checkModExports(path.join(abs, 'src', 'mod.ts'));
  if (name === '@toolshed/core') {
    checkModExports(path.join(abs, 'src', 'testing', 'mod.ts'));
    checkModExports(path.join(abs, 'src', 'internal', 'mod.ts'));
  }
}

/** Every `export { a, type B } from './x.ts'` names something `./x.ts` exports. */
function checkModExports(modFile: string): void {
  if (!existsSync(modFile)) return;
  const text = readFileSync(modFile, 'utf8');
  if (/export\s*\*/.test(text))
    problems.push(
      `${path.relative(root, modFile)}: use explicit named re-exports, not export * (CONVENTIONS.md rule 1)`,
    );
  for (const m of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"](\.[^'"]+)['"]/g)) {
    const target = path.resolve(path.dirname(modFile), m[2]!);
    if (!existsSync(target)) {
      problems.push(`${path.relative(root, modFile)}: re-exports from "${m[2]}", which does not exist`);
      continue;
    }
    const source = readFileSync(target, 'utf8');
    for (const raw of m[1]!.split(',')) {
      const local = raw
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]!
        .trim();
      if (!local) continue;
      const declared =
        new RegExp(
          `export\\s+(?:declare\\s+)?(?:default\\s+)?(?:async\\s+)?(?:function\\*?|class|const|let|var|type|interface|enum|abstract\\s+class)\\s+${local}\\b`,
        ).test(source) || new RegExp(`export\\s+(?:type\\s+)?\\{[^}]*\\b${local}\\b[^}]*\\}`).test(source);
      if (!declared)
        problems.push(`${path.relative(root, modFile)}: exports "${local}" from "${m[2]}", which has no such export`);
    }
  }
}

// 6. The recorded public API of each package is what its exports entries export.
{
  const started = performance.now();
  const apiPackages = packages.map((dir) => readApiPackage(path.join(root, dir)));
  const listings = listApis(apiPackages);
  for (const [pkg, listing] of listings) {
    const file = path.join(pkg.dir, API_FILE);
    const rel = path.relative(root, file);
    for (const u of listing.unresolved) problems.push(`${pkg.name}: export "${u}" resolves to no declaration`);
    if (updateApi) {
      const text = formatApiFile(pkg.name, listing.lines);
      if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
        writeFileSync(file, text);
        console.log(`${rel}: ${listing.lines.length} names written`);
      }
      continue;
    }
    if (!existsSync(file)) {
      problems.push(`${rel} is missing: run pnpm api:update to record the public API of ${pkg.name}`);
      continue;
    }
    const text = readFileSync(file, 'utf8');
    const diff = diffApi(parseApiFile(text), listing.lines);
    if (diff.added.length || diff.removed.length) problems.push(describeApiDiff(pkg, diff));
    else if (text !== formatApiFile(pkg.name, listing.lines))
      problems.push(`${rel}: not in its recorded form (header, sorted lines): run pnpm api:update`);
  }
  if (process.env.CHECK_STRUCTURE_TIMING) console.log(`API listing: ${Math.round(performance.now() - started)} ms`);
  if (updateApi) {
    console.log(`API files up to date for ${listings.size} packages`);
    for (const p of problems) console.warn(`- ${p}`);
    process.exit(0);
  }
}

// 5. The READMEs' integrator examples are the type-checked files of examples/src, word for word.
const QUOTED_EXAMPLES: [example: string, readme: string][] = [
  ['quick_start.ts', 'README.md'],
  ['lsp_quick_start.ts', 'packages/tool-lsp/README.md'],
];
for (const [file, readme] of QUOTED_EXAMPLES) {
  const example = readFileSync(path.join(root, 'examples', 'src', file), 'utf8').trim();
  if (!readFileSync(path.join(root, readme), 'utf8').includes(example)) {
    problems.push(
      `${readme}: the integrator example differs from examples/src/${file} (the type-checked copy); update one from the other`,
    );
  }
}

if (problems.length) {
  console.error(`Structure check: ${problems.length} problem(s)\n${problems.map((p) => `- ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`Structure check: ${packages.length} packages, 0 problems`);
