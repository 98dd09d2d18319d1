// Small real tools for the CLI's tests, added through the `extraTools` test hook while the family
// packages are still empty. Not exported from mod.ts.
import { realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildTool, serviceKey, type AnyTool } from '@toolshed/core';

// zod is core's dependency, not the CLI's (the CLI has no use for it outside tests), so it is
// reached through core's install, as the same module instance core itself imports.
const coreManifest = fileURLToPath(new URL('../node_modules/@toolshed/core/package.json', import.meta.url));
const zodEntry = path.join(path.dirname(realpathSync(createRequire(coreManifest).resolve('zod'))), 'index.js');
// biome-ignore lint/suspicious/noExplicitAny: zod's types are not resolvable from this package
const { z } = (await import(pathToFileURL(zodEntry).href)) as { z: any };

/** A read-only, concurrency-safe tool that returns its text; `{}` is not a valid input. */
export const echoTool: AnyTool = buildTool({
  name: 'Echo',
  description: 'Returns the text it is given.',
  inputSchema: z.strictObject({ text: z.string() }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async call({ text }: { text: string }) {
    return { data: text };
  },
});

/** A read-only tool that returns `chars` characters of "x" (a large result from a small input). */
export const bigTool: AnyTool = buildTool({
  name: 'Big',
  description: 'Returns chars characters.',
  inputSchema: z.strictObject({ chars: z.number().int().min(0) }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async call({ chars }: { chars: number }) {
    return { data: 'x'.repeat(chars) };
  },
});

/** A tool that writes `content` to `file_path` (relative to the session's cwd): not read-only, so it asks. */
export const writerTool: AnyTool = buildTool({
  name: 'Writer',
  description: 'Writes a file.',
  inputSchema: z.strictObject({ file_path: z.string(), content: z.string() }),
  getToolUseSummary: ({ file_path }: { file_path: string }) => file_path,
  // `Writer(secret*)` matches paths starting with "secret"; `Writer(out.txt)` that path only.
  preparePermissionMatcher:
    ({ file_path }: { file_path: string }) =>
    (content: string) =>
      content.endsWith('*') ? file_path.startsWith(content.slice(0, -1)) : file_path === content,
  async call({ file_path, content }: { file_path: string; content: string }, ctx) {
    await writeFile(path.resolve(ctx.cwd, file_path), content);
    return { data: `Wrote ${content.length} characters to ${file_path}` };
  },
});

const counterKey = serviceKey<{ n: number }>('cli-test.counter');

/** Counts its calls per session (a session service); read-only, not concurrency-safe; `{}` parses. */
export const counterTool: AnyTool = buildTool({
  name: 'Counter',
  description: 'Counts how often it was called in this session.',
  inputSchema: z.strictObject({}),
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  async call(_input: Record<string, never>, ctx) {
    let counter = ctx.services.get(counterKey);
    if (!counter) ctx.services.set(counterKey, (counter = { n: 0 }));
    counter.n++;
    return { data: `count ${counter.n}` };
  },
});

/** A read-only tool that always throws. */
export const boomTool: AnyTool = buildTool({
  name: 'Boom',
  description: 'Always fails.',
  inputSchema: z.strictObject({}),
  isReadOnly: () => true,
  async call() {
    throw new Error('the disk is on fire');
  },
});

/** Changes the session's cwd through a contextModifier (not read-only). */
export const cdTool: AnyTool = buildTool({
  name: 'Cd',
  description: 'Changes the working directory.',
  inputSchema: z.strictObject({ path: z.string() }),
  async call({ path: dir }: { path: string }, ctx) {
    const next = path.resolve(ctx.cwd, dir);
    return { data: `cd ${next}`, contextModifier: (c) => ({ ...c, cwd: next }) };
  },
});

/** Returns the session's cwd (read-only). */
export const pwdTool: AnyTool = buildTool({
  name: 'Pwd',
  description: 'Prints the working directory.',
  inputSchema: z.strictObject({}),
  isReadOnly: () => true,
  async call(_input: Record<string, never>, ctx) {
    return { data: ctx.cwd };
  },
});

/** Registers a cleanup that writes `closed.txt` in the cwd when the session closes (read-only). */
export const closerTool: AnyTool = buildTool({
  name: 'Closer',
  description: 'Leaves a marker file when the session closes.',
  inputSchema: z.strictObject({}),
  isReadOnly: () => true,
  async call(_input: Record<string, never>, ctx) {
    const cwd = ctx.cwd;
    ctx.onClose(() => writeFile(path.join(cwd, 'closed.txt'), 'closed'));
    return { data: 'will leave closed.txt on close' };
  },
});

/** Every test tool. */
export const testTools: readonly AnyTool[] = [echoTool, writerTool, counterTool, boomTool, cdTool, pwdTool, closerTool];
