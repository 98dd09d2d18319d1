// What a module of a Toolshed package must change when it moves into the CLI's bundle: its
// `import.meta.url` no longer names the file it was written in, so every use of it (a
// `createRequire` for the package's own `package.json` or a dependency's file, a folder beside the
// code) is given back the URL of the module as installed.
import path from 'node:path';

/** Where a module came from, for {@linkcode rewriteImportMetaUrl}. */
export interface BundledModule {
  /** The module's absolute file path (a `.js` file of a package's `dist/`). */
  file: string;
  /** The absolute folder of the package the module belongs to (where its `package.json` is). */
  packageDir: string;
  /** That package's name (`@toolshed/tool-shell`). */
  packageName: string;
  /** The name of the package being bundled (its code is found beside the bundle, not resolved). */
  bundlingPackage: string;
  /** The absolute folder the bundle is written to. */
  outDir: string;
  /** The file the package's `"."` export names, relative to its folder (`dist/mod.js`). */
  mainEntry: string;
}

const IMPORT_META_URL = /(?<![\w$.])import\.meta\.url\b/g;
/** The name each use is replaced by, declared once at the top of the module. */
const LOCAL = '__toolshedModuleUrl';

/**
 * Rewrites each `import.meta.url` of a module so that, inside the bundle, it still names the
 * module's own file: for the bundled package itself, relative to the bundle's folder (the
 * package's files ship beside it); for another Toolshed package, relative to where that package's
 * entry resolves from the bundle (`import.meta.resolve`, which finds the installed copy in a pnpm
 * workspace and in an npm install alike).
 *
 * @param text The module's JavaScript.
 * @param from Where the module came from.
 * @returns The JavaScript to bundle.
 *
 * @example
 * ```ts
 * import { rewriteImportMetaUrl } from './_bundle_rewrite.ts';
 *
 * rewriteImportMetaUrl("createRequire(import.meta.url)('../package.json')", {
 *   file: '/repo/packages/tool-fs/dist/family.js',
 *   packageDir: '/repo/packages/tool-fs',
 *   packageName: '@toolshed/tool-fs',
 *   bundlingPackage: '@toolshed/cli',
 *   outDir: '/repo/apps/cli/dist/bundle',
 *   mainEntry: 'dist/mod.js',
 * });
 * // const __toolshedModuleUrl = new URL("./family.js", import.meta.resolve("@toolshed/tool-fs")).href;
 * // createRequire(__toolshedModuleUrl)('../package.json')
 * ```
 */
export function rewriteImportMetaUrl(text: string, from: BundledModule): string {
  if (!IMPORT_META_URL.test(text)) return text;
  IMPORT_META_URL.lastIndex = 0;
  // A name, not the expression, at each use: a use inside a string then still parses.
  return `const ${LOCAL} = ${originalUrlExpression(from)};\n${text.replace(IMPORT_META_URL, LOCAL)}`;
}

/** A JavaScript expression whose value is the URL (a string) of the module as installed. */
function originalUrlExpression(from: BundledModule): string {
  if (from.packageName === from.bundlingPackage) {
    const relative = toPosix(path.relative(from.outDir, from.file));
    return `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
  }
  const entry = path.join(from.packageDir, from.mainEntry);
  let relative = toPosix(path.relative(path.dirname(entry), from.file));
  if (!relative.startsWith('.')) relative = `./${relative}`;
  return `new URL(${JSON.stringify(relative)}, import.meta.resolve(${JSON.stringify(from.packageName)})).href`;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
