import { execFile } from 'node:child_process';
import { jsSearch } from './_js_engine.ts';
import type { GrepQuery, GrepSink } from './_types.ts';

/** What one engine said of a pattern on one file: the matching lines (or multiline count), or that it refused. */
export type EngineAnswer = { refused: false; lines: number[]; count: number } | { refused: true; message: string };

/**
 * What ripgrep at `rg` says of `pattern` on `file` in `dir`: the numbers of the matching lines and
 * the count (`-c`, with `-U --multiline-dotall` when multiline), or its refusal.
 *
 * @example
 * ```ts
 * await rgAnswer('/usr/bin/rg', '/tmp/x', { pattern: '\\bcafé\\b', file: 't.txt', multiline: false });
 * ```
 */
export async function rgAnswer(
  rg: string,
  dir: string,
  options: { pattern: string; file: string; multiline: boolean },
): Promise<EngineAnswer> {
  const run = (args: string[]) =>
    new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile(rg, args, { cwd: dir }, (error, out, err) =>
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, out, err }),
      );
    });
  // As the ripgrep engine runs it (multiline: `.` matches a line break too).
  const flags = options.multiline ? ['-U', '--multiline-dotall'] : [];
  const lines = await run([...flags, '-n', '--no-heading', '-e', options.pattern, '--', options.file]);
  if (lines.code === 2) return { refused: true, message: lines.err };
  const count = await run([...flags, '-c', '-e', options.pattern, '--', options.file]);
  return {
    refused: false,
    lines: [...lines.out.matchAll(/^(\d+):/gm)].map((m) => Number(m[1])),
    count: Number(count.out.trim() || '0'),
  };
}

/**
 * What the JS engine says of the same search ({@linkcode rgAnswer}); `inThreadMs` as
 * `jsSearch` takes it (0: every line matched in the worker thread).
 *
 * @example
 * ```ts
 * await jsAnswer('/tmp/x', { pattern: '\\bcafé\\b', file: 't.txt', multiline: false });
 * ```
 */
export async function jsAnswer(
  dir: string,
  options: { pattern: string; file: string; multiline: boolean; inThreadMs?: number },
): Promise<EngineAnswer> {
  const query: GrepQuery = {
    pattern: options.pattern,
    dir,
    file: options.file,
    mode: 'content',
    before: 0,
    after: 0,
    ignoreCase: false,
    multiline: options.multiline,
    globs: [],
  };
  const lines: number[] = [];
  let count = 0;
  const sink: GrepSink = {
    file() {},
    count(_rel, n) {
      count = n;
    },
    line(_rel, n) {
      lines.push(n);
    },
    full: false,
  };
  try {
    await jsSearch(query, sink, { inThreadMs: options.inThreadMs });
    await jsSearch({ ...query, mode: 'count' }, sink, { inThreadMs: options.inThreadMs });
  } catch (e) {
    return { refused: true, message: (e as Error).message };
  }
  return { refused: false, lines, count };
}
