import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchTool } from './_search_stabletoolbench.ts';

/** How a child process sets up its session. */
export type StartupVariant = 'eager, nothing deferred' | 'eager, deferred' | 'lazy, deferred';

/** What one child process measured. */
export interface StartupSample {
  /** From the start of the script to `toolsFor('anthropic')` returning. */
  readyMs: number;
  /** Heap in use after a full garbage collection at that point. */
  heapUsedBytes: number;
  rssBytes: number;
  /** Whether the family's code module had been imported by then. */
  importedAtStart: boolean;
  /** How long the first `ToolSearch select:` took (the lazy family is imported there). */
  firstSelectMs: number;
  importedAfterSelect: boolean;
}

/** Median figures of one variant over the runs. */
export interface StartupResult {
  variant: StartupVariant;
  runs: number;
  readyMs: number;
  heapUsedMB: number;
  rssMB: number;
  importedAtStart: boolean;
  firstSelectMs: number;
  importedAfterSelect: boolean;
}

const VARIANTS: readonly StartupVariant[] = ['eager, nothing deferred', 'eager, deferred', 'lazy, deferred'];

/**
 * Start-up time and memory of a session whose family is a catalogue of tools (each a zod
 * schema built when its module is imported), three ways, each in fresh child processes: the
 * family imported eagerly with nothing deferred; imported eagerly and deferred; declared lazily
 * (`load` + `manifest`) and deferred, so its module is imported only when ToolSearch selects a
 * tool. Children run with this process's `execArgv` (the same loader and conditions), `--expose-gc`.
 *
 * @param tools The catalogue.
 * @param runs Child processes per variant.
 * @returns Medians per variant.
 * @throws {Error} If a child fails (the message carries its stderr).
 *
 * @example
 * ```ts
 * const results = await measureLazyStartup(bench.tools, 3);
 * ```
 */
export async function measureLazyStartup(tools: readonly BenchTool[], runs: number): Promise<StartupResult[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-bench-lazy-'));
  try {
    const catalogue = path.join(dir, 'catalogue_tools.mjs');
    await writeFile(
      catalogue,
      catalogueSource(tools, import.meta.resolve('zod'), import.meta.resolve('@toolshed/core')),
    );
    const manifest = path.join(dir, 'manifest.json');
    await writeFile(
      manifest,
      JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description.split('\n')[0]!.slice(0, 200) }))),
    );
    const script = path.join(dir, 'startup.mjs');
    await writeFile(
      script,
      startupSource(
        import.meta.resolve('@toolshed/core'),
        import.meta.resolve('@toolshed/toolsearch'),
        pathToFileURL(catalogue).href,
        manifest,
        tools[0]!.name,
      ),
    );
    const out: StartupResult[] = [];
    for (const variant of VARIANTS) {
      const samples: StartupSample[] = [];
      for (let i = 0; i < runs; i++) samples.push(await runChild(script, variant, dir));
      out.push({
        variant,
        runs,
        readyMs: round(median(samples.map((s) => s.readyMs)), 1),
        heapUsedMB: round(median(samples.map((s) => s.heapUsedBytes)) / 2 ** 20, 2),
        rssMB: round(median(samples.map((s) => s.rssBytes)) / 2 ** 20, 1),
        importedAtStart: samples.every((s) => s.importedAtStart),
        firstSelectMs: round(median(samples.map((s) => s.firstSelectMs)), 1),
        importedAfterSelect: samples.every((s) => s.importedAfterSelect),
      });
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function runChild(script: string, variant: StartupVariant, cwd: string): Promise<StartupSample> {
  const args = [...process.execArgv.filter((a) => !a.startsWith('--cpu-prof')), '--expose-gc', script, variant, cwd];
  return new Promise((resolve, reject) => {
    // This process's cwd, so that a loader named in execArgv (`--import tsx`) resolves as it did here.
    execFile(
      process.execPath,
      args,
      { cwd: process.cwd(), timeout: 120_000, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`The start-up child "${variant}" failed: ${error.message}\n${stderr}`, { cause: error }));
          return;
        }
        const line = stdout.trim().split('\n').pop() ?? '';
        try {
          resolve(JSON.parse(line) as StartupSample);
        } catch {
          reject(new Error(`The start-up child "${variant}" printed no result: ${stdout}\n${stderr}`));
        }
      },
    );
  });
}

function catalogueSource(tools: readonly BenchTool[], zodUrl: string, coreUrl: string): string {
  const lines = [
    `import { z } from ${JSON.stringify(zodUrl)};`,
    `import { buildTool } from ${JSON.stringify(coreUrl)};`,
    'globalThis.__catalogueImported = true;',
    'const call = async (input) => ({ data: JSON.stringify(input) });',
    'export const tools = [',
  ];
  for (const tool of tools) {
    const fields = Object.entries(tool.inputSchema.properties).map(([name, schema]) => {
      const base = schema.type === 'number' ? 'z.number()' : schema.type === 'boolean' ? 'z.boolean()' : 'z.string()';
      const described =
        typeof schema.description === 'string' ? `${base}.describe(${JSON.stringify(schema.description)})` : base;
      const required = tool.inputSchema.required?.includes(name);
      return `${JSON.stringify(name)}: ${required ? described : `${described}.optional()`}`;
    });
    lines.push(
      `  buildTool({ name: ${JSON.stringify(tool.name)}, description: ${JSON.stringify(tool.description)}, inputSchema: z.object({ ${fields.join(', ')} }), isReadOnly: () => true, call }),`,
    );
  }
  lines.push('];');
  return `${lines.join('\n')}\n`;
}

function startupSource(
  coreUrl: string,
  toolsearchUrl: string,
  catalogueUrl: string,
  manifestPath: string,
  firstTool: string,
): string {
  return `
const started = performance.now();
const variant = process.argv[2];
const { createSession, defineFamily } = await import(${JSON.stringify(coreUrl)});
const { toolSearch } = await import(${JSON.stringify(toolsearchUrl)});
const { readFileSync } = await import('node:fs');
let family;
if (variant.startsWith('lazy')) {
  const manifest = JSON.parse(readFileSync(${JSON.stringify(manifestPath)}, 'utf8'));
  family = defineFamily({ name: 'apis', version: '0.0.0', load: async () => (await import(${JSON.stringify(catalogueUrl)})).tools, manifest });
} else {
  const { tools } = await import(${JSON.stringify(catalogueUrl)});
  family = defineFamily({ name: 'apis', version: '0.0.0', tools });
}
const mode = variant.includes('nothing') ? 'never' : 'always';
const session = await createSession({ cwd: process.argv[3], stateDir: process.argv[3], families: [family, toolSearch({ mode })] });
session.toolsFor('anthropic');
const readyMs = performance.now() - started;
globalThis.gc();
const mem = process.memoryUsage();
const importedAtStart = globalThis.__catalogueImported === true;
const t = performance.now();
await session.run([{ type: 'tool_use', id: 's1', name: 'ToolSearch', input: { query: 'select:' + ${JSON.stringify(firstTool)} } }]);
const firstSelectMs = performance.now() - t;
await session.close();
console.log(JSON.stringify({ readyMs, heapUsedBytes: mem.heapUsed, rssBytes: mem.rss, importedAtStart, firstSelectMs, importedAfterSelect: globalThis.__catalogueImported === true }));
`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
