// Bundles the `toolshed` binary (apps/cli's `build` runs it after tsc): the CLI, core, the
// families and their pure-JavaScript dependencies become a few files in apps/cli/dist/bundle/,
// split at every `await import()` so that each command still loads only what it uses.
//
// Why: Node 20 loads ES modules one file at a time and has no compile cache; `toolshed call Read`
// loaded 281 files (zod alone 99, most of them locales) and spent more time finding, reading and
// linking them than running. Claude Code, Gemini CLI and opencode ship their CLIs bundled for the
// same reason. The packages themselves stay unbundled for integrators.
//
// Kept outside the bundle, and so declared by the CLI itself (checked below): dependencies that
// load files beside their own code at run time (pdf.js's worker, tree-sitter's wasm).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { rewriteImportMetaUrl } from './_bundle_rewrite.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cliDir = path.join(root, 'apps/cli');
const outDir = path.join(cliDir, 'dist/bundle');

/** Dependencies the bundle imports from node_modules, with the family that needs each. */
const EXTERNAL = { 'pdfjs-dist': 'tool-fs', 'web-tree-sitter': 'tool-shell' } as const;

interface Manifest {
  name: string;
  version: string;
  exports?: Record<string, { import?: string } | string>;
  dependencies?: Record<string, string>;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** The CLI declares each external at the range its family does, so both resolve to one copy. */
function checkExternalsDeclared(): void {
  const cli = readManifest(cliDir);
  for (const [name, family] of Object.entries(EXTERNAL)) {
    const wanted = readManifest(path.join(root, 'packages', family)).dependencies?.[name];
    const declared = cli.dependencies?.[name];
    if (!wanted || declared !== wanted)
      throw new Error(
        `apps/cli/package.json must depend on "${name}" at "${wanted}" (as @toolshed/${family} does), not "${declared ?? 'nothing'}": the bundle imports it from node_modules.`,
      );
  }
}

const packageOf = new Map<string, { dir: string; manifest: Manifest } | null>();

/** The Toolshed package a file belongs to, or null for any other file. */
function toolshedPackage(file: string): { dir: string; manifest: Manifest } | null {
  const dir = path.dirname(file);
  const known = packageOf.get(dir);
  if (known !== undefined) return known;
  let found: { dir: string; manifest: Manifest } | null = null;
  for (let d = dir; path.dirname(d) !== d; d = path.dirname(d)) {
    let manifest: Manifest;
    try {
      manifest = readManifest(d);
    } catch {
      continue;
    }
    found = manifest.name?.startsWith('@toolshed/') ? { dir: d, manifest } : null;
    break;
  }
  packageOf.set(dir, found);
  return found;
}

function mainEntry(manifest: Manifest): string {
  const dot = manifest.exports?.['.'];
  const entry = typeof dot === 'string' ? dot : dot?.import;
  if (!entry) throw new Error(`${manifest.name} has no "." export with an "import" file`);
  return entry.replace(/^\.\//, '');
}

/** Gives every Toolshed module its own `import.meta.url` back (see _bundle_rewrite.ts). */
const importMetaUrl: Plugin = {
  name: 'toolshed-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      const pkg = toolshedPackage(args.path);
      if (!pkg) return undefined;
      const text = readFileSync(args.path, 'utf8');
      const contents = rewriteImportMetaUrl(text, {
        file: args.path,
        packageDir: pkg.dir,
        packageName: pkg.manifest.name,
        bundlingPackage: '@toolshed/cli',
        outDir,
        mainEntry: mainEntry(pkg.manifest),
      });
      return { contents, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

checkExternalsDeclared();
// Chunk names carry a hash: a bundle of an earlier build must not be left beside this one.
rmSync(outDir, { recursive: true, force: true });
const result = await build({
  entryPoints: [path.join(cliDir, 'dist/main.js')],
  outdir: outDir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: Object.keys(EXTERNAL).flatMap((name) => [name, `${name}/*`]),
  // CommonJS dependencies call require() for Node's own modules; an ES module has none of its own.
  banner: {
    js: "import { createRequire as __toolshedCreateRequire } from 'node:module'; const require = __toolshedCreateRequire(import.meta.url);",
  },
  // Stack traces name the TypeScript file and line (with TOOLSHED_DEBUG=1, which turns source maps on).
  sourcemap: true,
  sourcesContent: false,
  minifyWhitespace: true,
  minifySyntax: true,
  // The licences of bundled dependencies travel with their code.
  legalComments: 'eof',
  metafile: true,
  plugins: [importMetaUrl],
  logLevel: 'warning',
  // Metafile paths relative to the repository root, whoever runs the build.
  absWorkingDir: root,
});
// Which source files went into which output file: module_loading_test reads it.
writeFileSync(path.join(outDir, 'meta.json'), JSON.stringify(result.metafile));
