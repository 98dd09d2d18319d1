import type { CompiledPattern } from './_pattern.ts';

/** Characters of matches after which {@linkcode multilineMatches} gives its caller a step. */
const STEP_CHARS = 1 << 20;

/**
 * One piece of matching the JS engine may hand to a worker thread (see `_match_workers.ts`):
 * `test`, whether a text of whole lines holds a match; `lines`, which of a text's lines (split
 * at `\n`, a CR kept) match, or only the first with `first`; `multiline`, what
 * {@linkcode multilineMatches} says of a whole file's text.
 */
export type MatchOp =
  | { op: 'test'; text: string }
  | { op: 'lines'; text: string; first: boolean }
  | { op: 'multiline'; text: string; lineCount: number };

/** What a {@linkcode MatchOp} answers: a boolean, line indexes, or a multiline result. */
export type MatchOpResult = boolean | number[] | { lines: number[]; count: number };

/**
 * Runs one {@linkcode MatchOp} to the end, synchronously: the same code on the search's thread
 * and in the worker, so that where it runs changes nothing of what is found.
 *
 * @param re The compiled pattern.
 * @param request The work.
 * @returns Its answer.
 *
 * @example
 * ```ts
 * import { runMatchOp } from './_match_ops.ts';
 * import { compilePattern } from './_pattern.ts';
 * const re = await compilePattern({ pattern: 'b\\d', ignoreCase: false, multiline: false });
 *
 * runMatchOp(re, { op: 'lines', text: 'a1\nb2\nb3', first: false }); // [1, 2]
 * ```
 */
export function runMatchOp(re: CompiledPattern, request: MatchOp): MatchOpResult {
  switch (request.op) {
    case 'test':
      return re.test(request.text);
    case 'lines': {
      const lines = request.text.split('\n');
      const found: number[] = [];
      for (let i = 0; i < lines.length; i++) {
        if (!re.test(lines[i]!)) continue;
        found.push(i);
        if (request.first) break;
      }
      return found;
    }
    case 'multiline': {
      const steps = multilineMatches(request.text, re, { lineCount: request.lineCount });
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) return { lines: [...step.value.lines].sort((a, b) => a - b), count: step.value.count };
      }
    }
  }
}

/**
 * With multiline: the lines every match touches, and the count ripgrep says: the matches where
 * one holds a line break, else the lines with a match (rg -U searches line by line for a pattern
 * that cannot match one, and counts lines then; that is decided here by the matches found).
 * A match past the last line (`\z`, after the final line break) touches no line and counts for nothing.
 * Each step it yields is a megabyte of matches done, where the caller may pause or stop it.
 *
 * @param text The file's text.
 * @param re The compiled pattern (`multiline`).
 * @param options `lineCount`: the text's lines (a final line break starts none).
 * @returns The lines (0-based) and the count.
 *
 * @example
 * ```ts
 * import { multilineMatches } from './_match_ops.ts';
 * import { compilePattern } from './_pattern.ts';
 * const re = await compilePattern({ pattern: 'a\\nb', ignoreCase: false, multiline: true });
 *
 * [...multilineMatches('a\nb\n', re, { lineCount: 2 })]; // no steps for a small text; the result is { lines: {0, 1}, count: 1 }
 * ```
 */
export function* multilineMatches(
  text: string,
  re: CompiledPattern,
  { lineCount }: { lineCount: number },
): Generator<undefined, { lines: Set<number>; count: number }, unknown> {
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
  const lines = new Set<number>();
  let count = 0;
  let breaks = false;
  let stepAt = 0;
  for (const m of re.matches(text)) {
    if (m.end - stepAt > STEP_CHARS) {
      stepAt = m.end;
      yield;
    }
    if (lineAt(m.start) >= lineCount) continue;
    count++;
    const nl = text.indexOf('\n', m.start);
    if (nl !== -1 && nl < m.end) breaks = true;
    const end = Math.max(m.start, m.end - 1);
    for (let l = lineAt(m.start); l <= lineAt(end) && l < lineCount; l++) lines.add(l);
  }
  return { lines, count: breaks ? count : lines.size };
}
