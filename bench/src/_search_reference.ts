import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SearchableTool } from '@toolshed/toolsearch';

/** The ranking of a past commit: its `createToolIndex`, with its default ranker. */
export interface ReferenceRanker {
  /** The commit it was built from. */
  readonly commit: string;
  /** The source files taken from the commit, relative to `packages/toolsearch/src`. */
  readonly files: readonly string[];
  /** The temporary folder they were written to. */
  readonly dir: string;
  createToolIndex(tools: readonly SearchableTool[]): { search(query: string): unknown[] };
  /** Removes the temporary folder. */
  dispose(): Promise<void>;
}

/** Options of {@linkcode loadRankerAt}. */
export interface LoadRankerOptions {
  /** The repository. @default the repository this file is in */
  repoDir?: string;
}

const REPO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE_DIR = 'packages/toolsearch/src';
const ENTRY = 'tool_index.ts';

/**
 * The ranker as it was at a commit, for a comparison in the same run: `tool_index.ts` and the
 * modules it imports, read with `git show <commit>:…` into a temporary folder and imported from
 * there (this process's loader compiles the TypeScript). Nothing is copied into the repository;
 * the old code exists only while the bench runs. Only the ranking modules are taken: they import
 * nothing outside their folder (a bare import would fail to load, and is refused).
 *
 * @param commit The commit (a hash or any name git knows).
 * @param options Where the repository is.
 * @returns The old `createToolIndex`; call `dispose()` when done.
 * @throws {Error} If git is missing, the commit or the file is unknown, or a module imports a package.
 *
 * @example
 * ```ts
 * const filed = await loadRankerAt('b430c4e');
 * filed.createToolIndex(tools).search('send a slack message');
 * await filed.dispose();
 * ```
 */
export async function loadRankerAt(commit: string, options: LoadRankerOptions = {}): Promise<ReferenceRanker> {
  const repoDir = options.repoDir ?? REPO_DIR;
  const sources = new Map<string, string>();
  const pending = [ENTRY];
  while (pending.length) {
    const file = pending.pop()!;
    if (sources.has(file)) continue;
    const text = await gitShow(repoDir, `${commit}:${SOURCE_DIR}/${file}`);
    sources.set(file, text);
    for (const spec of importsOf(text)) {
      if (!spec.startsWith('./'))
        throw new Error(
          `${SOURCE_DIR}/${file} at ${commit} imports "${spec}": only modules of its own folder can be loaded from a commit`,
        );
      pending.push(spec.slice(2));
    }
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), `toolshed-ranker-${commit.slice(0, 12)}-`));
  try {
    await writeFile(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    for (const [file, text] of sources) await writeFile(path.join(dir, file), text);
    const module = (await import(pathToFileURL(path.join(dir, ENTRY)).href)) as Pick<
      ReferenceRanker,
      'createToolIndex'
    >;
    if (typeof module.createToolIndex !== 'function')
      throw new Error(`${SOURCE_DIR}/${ENTRY} at ${commit} exports no createToolIndex`);
    return {
      commit,
      files: [...sources.keys()].sort(),
      dir,
      createToolIndex: (tools) => module.createToolIndex(tools),
      dispose: () => rm(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Module specifiers of static imports and re-exports (`import … from './x.ts'`, `export … from`). */
function importsOf(text: string): string[] {
  const specs: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]/gm)) specs.push(m[1]!);
  return specs;
}

function gitShow(repoDir: string, object: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', ['-C', repoDir, 'show', object], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error)
        reject(
          new Error(`git show ${object} failed in ${repoDir}: ${(stderr || error.message).trim()}`, { cause: error }),
        );
      else resolve(stdout);
    });
  });
}
