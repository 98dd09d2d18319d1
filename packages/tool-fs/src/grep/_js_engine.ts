import { readFileSync, statSync } from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import path from 'node:path';
import ignore from 'ignore';
import { decodeText } from '../_text_file.ts';
import { walkFiles } from '../_walk.ts';
import { FILE_TYPES } from './_file_types.ts';
import { CLIPPED_MARKER, GrepQueryError, MAX_GREP_COLUMNS, type GrepFound, type GrepLine, type GrepQuery } from './_types.ts';

/** Files over this size are skipped by the JS engine (ripgrep has no such limit). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Milliseconds of synchronous reading between two yields to the event loop. */
const SLICE_MS = 8;

/**
 * Compiles a ripgrep-syntax pattern into a JS RegExp: leading inline flags (`(?i)`, `(?s)`,
 * `(?m)`, `(?x)`-less combinations) become RegExp flags; Unicode mode is used where the pattern
 * allows it (as Rust's regex is Unicode-aware), otherwise the legacy mode.
 *
 * @param query The pattern and its options.
 * @returns A global RegExp.
 * @throws {GrepQueryError} Quoting the JS engine's complaint, or ripgrep's rule against `\n` without multiline.
 *
 * @example
 * ```ts
 * compilePattern({ pattern: '(?i)todo', ignoreCase: false, multiline: false }).flags; // 'gimu'
 * ```
 */
export function compilePattern(query: Pick<GrepQuery, 'pattern' | 'ignoreCase' | 'multiline'>): RegExp {
  let source = query.pattern;
  let flags = 'gm';
  if (query.ignoreCase) flags += 'i';
  if (query.multiline) flags += 's';
  const inline = /^\(\?([ims]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    for (const f of inline[1]!) if (!flags.includes(f)) flags += f;
  }
  if (!query.multiline && /(^|[^\\])(\\\\)*\\n/.test(source)) {
    throw new GrepQueryError(`The regex ${JSON.stringify(query.pattern)} matches a line break ("\\n"), which only works with multiline: true.`);
  }
  source = translateRustSyntax(source);
  try {
    // `\x{e9}` is Rust's spelling of JS's `\u{e9}` (Unicode mode only).
    return new RegExp(source.replace(/(?<=(?:^|[^\\])(?:\\\\)*)\\x\{([0-9A-Fa-f]{1,6})\}/g, '\\u{$1}'), `${flags}u`);
  } catch {
    try {
      return new RegExp(source, flags);
    } catch (e) {
      const hint = /\(\?[a-zA-Z-]*[:)]/.test(source)
        ? ' Inline flags are supported only at the start, as (?i), (?s) or (?m); set -i or multiline instead of (?x), (?U) or (?i:…).'
        : '';
      throw new GrepQueryError(`The regex ${JSON.stringify(query.pattern)} is invalid: ${(e as Error).message}.${hint}`);
    }
  }
}

// ripgrep's POSIX classes are ASCII, so they translate to plain ranges inside a bracket.
const POSIX_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9',
  graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`{-~', space: '\\t\\n\\v\\f\\r ', upper: 'A-Z',
  word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};

/** Rewrites the Rust-only syntax a JS RegExp has an equivalent for: `[[:alpha:]]` classes. */
function translateRustSyntax(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += source.slice(i, i + 2);
      i++;
      continue;
    }
    if (inClass && c === '[' && source[i + 1] === ':') {
      const m = /^\[:([a-z]+):\]/.exec(source.slice(i));
      const range = m ? POSIX_CLASSES[m[1]!] : undefined;
      if (m && range) {
        out += range;
        i += m[0].length - 1;
        continue;
      }
    }
    if (c === '[' && !inClass) {
      inClass = true;
      out += c;
      // A `]` right after `[` or `[^` is a literal in both syntaxes.
      if (source[i + 1] === '^') out += source[++i];
      if (source[i + 1] === ']') out += source[++i];
      continue;
    }
    if (c === ']' && inClass) inClass = false;
    out += c;
  }
  return out;
}

/**
 * Runs a query in JavaScript with ripgrep's semantics as far as feasible: the same file walk
 * (hidden files, ignore files, no symlinks), the same `glob` override and `type` rules, line-by-line
 * matching (or whole-file with `multiline`), files with a NUL byte skipped, long lines clipped.
 * Differences: JS regex syntax (lookaround and backreferences work here, ripgrep refuses them; a
 * few Rust-only classes do not), columns counted in characters rather than bytes, files over 64 MB skipped.
 *
 * @param query The query.
 * @param signal Stops the search.
 * @returns What was found, paths relative to `query.dir`.
 * @throws {GrepQueryError} For a bad regex or an unknown type.
 *
 * @example
 * ```ts
 * await jsSearch({ pattern: 'TODO', dir: '/repo', mode: 'files_with_matches', before: 0, after: 0, ignoreCase: false, multiline: false, globs: [] });
 * ```
 */
export async function jsSearch(query: GrepQuery, signal?: AbortSignal): Promise<GrepFound> {
  const re = compilePattern(query);
  let typeFilter: ((rel: string) => boolean) | undefined;
  if (query.type !== undefined) {
    const globs = FILE_TYPES[query.type];
    if (!globs) throw new GrepQueryError(`unrecognized file type: ${query.type} (known here: ${Object.keys(FILE_TYPES).join(', ')})`);
    const ig = ignore().add([...globs]);
    typeFilter = (rel) => ig.ignores(path.posix.basename(rel));
  }
  let files: string[];
  if (query.file !== undefined) {
    files = [query.file];
  } else {
    files = await walkFiles(query.dir, { globs: query.globs, ...(signal ? { signal } : {}) });
    if (typeFilter) files = files.filter(typeFilter);
  }
  const results: ({ file: string; count: number; lines: GrepLine[] } | undefined)[] = new Array(files.length);
  let sliceStart = performance.now();
  for (let i = 0; i < files.length; i++) {
    // Synchronous reads in slices of a few milliseconds: much faster than the thread pool for
    // many small files, and the event loop still gets a turn between slices.
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToLoop();
      signal?.throwIfAborted();
      sliceStart = performance.now();
    }
    results[i] = searchFile(path.join(query.dir, files[i]!), files[i]!, re, query);
  }
  const hits = results.filter((r): r is { file: string; count: number; lines: GrepLine[] } => r !== undefined && r.count > 0);
  if (query.mode === 'files_with_matches') return { mode: 'files_with_matches', files: hits.map((h) => h.file) };
  if (query.mode === 'count') return { mode: 'count', counts: hits.map((h) => ({ file: h.file, count: h.count })) };
  return { mode: 'content', groups: hits.map((h) => ({ file: h.file, lines: h.lines })) };
}

function searchFile(abs: string, rel: string, re: RegExp, query: GrepQuery): { file: string; count: number; lines: GrepLine[] } | undefined {
  const st = statSync(abs, { throwIfNoEntry: false });
  if (!st?.isFile() || st.size > MAX_FILE_BYTES) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch {
    return undefined; // unreadable: skipped, as ripgrep skips it (with --no-messages)
  }
  if (bytes.indexOf(0) !== -1 && !(bytes[0] === 0xff && bytes[1] === 0xfe)) return undefined;
  const { text } = decodeText(bytes);
  // Most files do not match: one pass over the whole text rules them out before splitting lines.
  // (With the m flag, ^ and $ work at line ends there too; a CR before \n only matters for a match that is kept.)
  re.lastIndex = 0;
  if (!query.multiline && !re.test(text)) return undefined;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const matched = new Set<number>();
  let count = 0;
  if (query.multiline) {
    const starts: number[] = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    const lineAt = (index: number) => {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= index) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      count++;
      const end = m.index + Math.max(0, m[0].length - 1);
      for (let l = lineAt(m.index); l <= lineAt(end) && l < lines.length; l++) matched.add(l);
      if (m[0].length === 0) re.lastIndex++;
    }
  } else {
    lines.forEach((raw, i) => {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      re.lastIndex = 0;
      if (re.test(line)) {
        matched.add(i);
        count++;
      }
    });
  }
  if (count === 0) return undefined;
  if (query.mode !== 'content') return { file: rel, count, lines: [] };
  const shown = new Map<number, boolean>();
  for (const i of matched) {
    for (let c = Math.max(0, i - query.before); c <= Math.min(lines.length - 1, i + query.after); c++) {
      if (!shown.has(c)) shown.set(c, false);
    }
    shown.set(i, true);
  }
  const out: GrepLine[] = [...shown.keys()].sort((a, b) => a - b).map((i) => ({ n: i + 1, match: shown.get(i)!, text: clipColumns(lines[i]!.replace(/\r$/, '')) }));
  return { file: rel, count, lines: out };
}

function clipColumns(line: string): string {
  return line.length <= MAX_GREP_COLUMNS ? line : `${line.slice(0, MAX_GREP_COLUMNS)}${CLIPPED_MARKER}`;
}
