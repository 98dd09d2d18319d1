import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RIPGREP } from '../_test_engines.ts';
import { rgSearch } from './_rg_engine.ts';
import type { GrepQuery, GrepSink } from './_types.ts';

/** A sink that keeps every line as `file:N:text` (`-` for context), up to `limit` lines. */
function recordingSink(limit = Number.POSITIVE_INFINITY): GrepSink & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    file: () => {},
    count: () => {},
    line(rel, n, match, text, textStart = 0) {
      lines.push(`${rel}:${n}${match ? ':' : '-'}${text.slice(textStart)}`);
    },
    get full() {
      return lines.length >= limit;
    },
    // What a page says it keeps: a finite page goes the way of a page, Infinity every line's.
    keeps: limit,
  };
}

describe.skipIf(RIPGREP === undefined)('rgSearch of a folder in content mode', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rg-engine-'));
    // Names whose byte order is not walk order, nested folders, CRLF, a long line, matches near each other (context).
    const names = ['a/b.ts', 'a-c.ts', 'a.b/x.ts', 'z.ts', 'crlf.ts', 'long.ts', 'ü/naïve.ts'];
    for (let i = 0; i < 300; i++) names.push(`deep/${i % 7}/f${i}.ts`);
    for (const name of names) {
      await mkdir(path.join(dir, path.dirname(name)), { recursive: true });
      const body = Array.from({ length: 40 }, (_, l) =>
        l % 9 === 0 ? `hit ${name} ${l}${name === 'long.ts' ? 'w'.repeat(900) : ''}` : `other ${l}`,
      );
      await writeFile(path.join(dir, name), `${body.join(name === 'crlf.ts' ? '\r\n' : '\n')}\n`);
    }
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const query = (over: Partial<GrepQuery> = {}): GrepQuery => ({
    pattern: 'hit',
    dir,
    mode: 'content',
    before: 0,
    after: 0,
    ignoreCase: false,
    multiline: false,
    globs: [],
    ...over,
  });

  /** `rg --sort path` run directly, its lines as the recording sink writes them. */
  function sortedByRipgrep(q: GrepQuery): string[] {
    const args = ['--no-config', '--hidden', '--no-require-git', '--glob', '!.git', '--null', '--sort', 'path', '-n'];
    args.push('--with-filename', '--no-heading', '--max-columns', '500', '--max-columns-preview');
    if (q.multiline) args.push('--multiline', '--multiline-dotall');
    if (q.before) args.push('-B', String(q.before));
    if (q.after) args.push('-A', String(q.after));
    const out = execFileSync(RIPGREP!, [...args, '--regexp', q.pattern], {
      cwd: dir,
      maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'pipe'],
    }).toString();
    return out
      .split('\n')
      .filter((l) => l.includes('\0'))
      .map((l) => l.replace('\0', ':').replace(/\r$/, ''));
  }

  test.each([
    ['plain lines', {}],
    ['context lines', { before: 2, after: 1 }],
    ['multiline matches', { pattern: 'hit[^\\n]*\\nother', multiline: true }],
  ])(
    'with %s, every way the two runs can end gives the lines of rg --sort path, once each, in its order',
    async (_, over) => {
      const expected = sortedByRipgrep(query(over));
      expect(expected.length).toBeGreaterThan(1500);
      expect(expected[0]).toMatch(/^a\/b\.ts:/);
      for (const options of [
        {},
        // The sorted run stopped at once: sorted pieces on every core.
        { pauseSortedAfterMs: 0 },
        // The same, each piece ahead of its turn paused as soon as it prints.
        { pauseSortedAfterMs: 0, unsortedBytes: 1 },
        // Pieces of a tenth each.
        { pauseSortedAfterMs: 0, pieceShares: Array.from({ length: 10 }, () => 0.1) },
        // Not cut: the unsorted output is used whole.
        { pauseSortedAfterMs: 0, pieceShares: [] },
        // Never paused: the sorted run alone, as before there were two.
        { pauseSortedAfterMs: 60_000 },
        // Paused after a few lines: those, then the rest of the unsorted output.
        { pauseSortedAfterMs: 3 },
        // A bound of one byte: the unsorted run is given up at once and the sorted run goes on.
        { unsortedBytes: 1, pauseSortedAfterMs: 0, pieceShares: [] },
      ]) {
        const sink = recordingSink();
        await rgSearch(query(over), sink, { rg: RIPGREP!, ...options });
        expect(sink.lines, JSON.stringify(options)).toEqual(expected);
      }
    },
  );

  test.each([
    ['sorted pieces, written line by line', 5, {}],
    ['sorted pieces, the first going alone', 1000, { pauseSortedAfterMs: 60_000 }],
    ['sorted pieces, the first joined at once', 1000, { pauseSortedAfterMs: 0 }],
    [
      'sorted pieces, the first joined at once, all paused ahead of their turn',
      1000,
      { pauseSortedAfterMs: 0, unsortedBytes: 1 },
    ],
    ['the unsorted output', 5, { pieceShares: [], pauseSortedAfterMs: 0 }],
  ])('a page of %s (%i lines) is the first lines in path order, and says it stopped', async (_, limit, over) => {
    const page = recordingSink(limit);
    const { stopped } = await rgSearch(query(), page, { rg: RIPGREP!, ...over });
    expect(stopped).toBe(true);
    expect(page.lines).toEqual(sortedByRipgrep(query()).slice(0, limit));
  });

  test('a bad regex is ripgrep complaint either way', async () => {
    await expect(rgSearch(query({ pattern: 'a(' }), recordingSink(), { rg: RIPGREP! })).rejects.toThrow(
      /ripgrep rejected the search:[\s\S]*unclosed group/,
    );
  });
});
