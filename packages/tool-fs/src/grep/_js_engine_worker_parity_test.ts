import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsSearch } from './_js_engine.ts';
import { matchWorkerStats } from './_match_workers.ts';
import type { GrepQuery, GrepSink } from './_types.ts';

const long = (n: number, fill: string, middle = '') => {
  const half = fill.repeat(Math.ceil(n / 2 / fill.length)).slice(0, n / 2);
  return `${half}${middle}${half}`;
};

// Long lines (past what the search's thread matches in one go) between short ones, CRLF ends,
// lines past the 4 096-line and megabyte pieces, and text for multiline patterns.
const FILES: Record<string, string> = {
  'a.txt': 'foo1 here\nnothing\nbar and foo22\nstart\nmiddle\nend\n',
  'bundle.min.js': [
    'short foo1',
    long(300_000, 'abc ', ' foo123 '),
    'between',
    long(60_000, 'xyz'),
    `${long(40_000, 'q ', 'foo9')}\r`,
    'bar',
    'foo7\r',
    long(1_200_000, 'b ', 'bar foo5 start'),
    'end',
  ].join('\n'),
  'many.txt': Array.from({ length: 5000 }, (_, i) =>
    i % 997 === 0 ? long(20_000, 'w ', `foo${i}`) : i % 13 === 0 ? `foo${i} x` : `line ${i}`,
  ).join('\n'),
  'multi.txt': `start\n${long(100_000, 'm ')}\nend\nfoo1\nbar\nstart foo2\nbar end\n`,
  'empty.txt': '',
  'nl.txt': '\n',
};

const PATTERNS: { pattern: string; multiline?: boolean; ignoreCase?: boolean }[] = [
  { pattern: 'foo\\d+' },
  { pattern: 'foo' },
  { pattern: 'foo|bar' },
  { pattern: '(?i)FOO\\d' },
  { pattern: 'FOO[0-9]', ignoreCase: true },
  { pattern: '\\bfoo\\d\\b' },
  { pattern: '\\d$' },
  { pattern: '^(?:bar|end)' },
  { pattern: '\\Afoo' },
  { pattern: '^$' },
  { pattern: 'foo\\d+\\s*\\r?\\nbar', multiline: true },
  { pattern: '(?s)start.*?end', multiline: true },
  { pattern: 'foo\\d', multiline: true },
];

type Event = [string, string, number | string, ...unknown[]];

describe('the JS engine finds the same whether a line is matched on its thread or in the worker', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-jsgrep-parity-'));
    for (const [name, text] of Object.entries(FILES)) await writeFile(path.join(dir, name), text);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** What a search gives its sink, in order; the sink is full after `limit` lines. */
  async function events(query: GrepQuery, inThreadMs: number | undefined, limit = Infinity): Promise<Event[]> {
    const out: Event[] = [];
    let lines = 0;
    const sink: GrepSink = {
      file: (rel) => out.push(['file', rel, 0]),
      count: (rel, n) => out.push(['count', rel, n]),
      line: (rel, n, match, text) => {
        lines++;
        out.push(['line', rel, n, match, text]);
      },
      get full() {
        return lines >= limit;
      },
    };
    await jsSearch(query, sink, { inThreadMs });
    return out;
  }

  const query = (p: (typeof PATTERNS)[number], mode: GrepQuery['mode']): GrepQuery => ({
    pattern: p.pattern,
    dir,
    mode,
    before: mode === 'content' ? 2 : 0,
    after: mode === 'content' ? 1 : 0,
    ignoreCase: p.ignoreCase ?? false,
    multiline: p.multiline ?? false,
    globs: [],
  });

  test.each(PATTERNS)('$pattern (multiline: $multiline): the same files, counts, lines and clipping', async (p) => {
    for (const mode of ['content', 'count', 'files_with_matches'] as const) {
      const here = await events(query(p, mode), Infinity);
      const jobsBefore = matchWorkerStats().jobs;
      expect(await events(query(p, mode), 0)).toEqual(here);
      expect(matchWorkerStats().jobs).toBeGreaterThan(jobsBefore);
      expect(await events(query(p, mode), undefined)).toEqual(here);
    }
    // A page that fills up stops both at the same line.
    const firstFew = await events(query(p, 'content'), Infinity, 3);
    expect(await events(query(p, 'content'), 0, 3)).toEqual(firstFew);
  });

  test('the long lines are there, clipped as ripgrep clips them', async () => {
    const lines = await events({ ...query({ pattern: 'foo123' }, 'content'), file: 'bundle.min.js' }, undefined);
    expect(lines.filter((e) => e[3] === true).map((e) => e[2])).toEqual([2]);
    expect(String(lines.find((e) => e[2] === 2)![4])).toMatch(/^abc abc .* \[\.\.\. omitted end of long line\]$/);
  });

  test('an ordinary search of short lines starts no worker and sends it nothing', async () => {
    const before = matchWorkerStats();
    await events({ ...query({ pattern: 'foo\\d+' }, 'content'), file: 'a.txt' }, undefined);
    await events({ ...query({ pattern: '(?s)start.*?end', multiline: true }, 'count'), file: 'a.txt' }, undefined);
    const after = matchWorkerStats();
    expect(after.jobs).toBe(before.jobs);
    expect(after.started).toBe(before.started);
  });
});
