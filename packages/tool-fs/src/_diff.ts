/** One line of a line diff: kept (`' '`), only in the first text (`'-'`), only in the second (`'+'`). */
export interface DiffLine {
  op: ' ' | '-' | '+';
  line: string;
  /** The line's number in the first text (for `' '` and `'-'`) or in the second (for `'+'`), 1-based. */
  n: number;
}

/** Above this many cells the middle part is shown as removed-then-added instead of aligned. */
const MAX_LCS_CELLS = 4_000_000;

/**
 * A line diff of two texts (common prefix and suffix trimmed, the middle aligned by longest
 * common subsequence; a very large middle is shown as a block replacement).
 *
 * @param a The first text's lines.
 * @param b The second text's lines.
 * @returns The diff, in order.
 *
 * @example
 * ```ts
 * import { diffLines } from './_diff.ts';
 *
 * diffLines(['a', 'b'], ['a', 'c']); // [{ op: ' ', line: 'a', n: 1 }, { op: '-', line: 'b', n: 2 }, { op: '+', line: 'c', n: 2 }]
 * ```
 */
export function diffLines(a: readonly string[], b: readonly string[]): DiffLine[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const out: DiffLine[] = [];
  for (let i = 0; i < pre; i++) out.push({ op: ' ', line: a[i]!, n: i + 1 });
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  if (am.length * bm.length > MAX_LCS_CELLS) {
    am.forEach((line, i) => out.push({ op: '-', line, n: pre + i + 1 }));
    bm.forEach((line, i) => out.push({ op: '+', line, n: pre + i + 1 }));
  } else {
    out.push(...lcsDiff(am, bm, pre));
  }
  for (let i = a.length - suf; i < a.length; i++) out.push({ op: ' ', line: a[i]!, n: i + 1 });
  return out;
}

function lcsDiff(a: readonly string[], b: readonly string[], base: number): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const w = m + 1;
  const table = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * w + j] =
        a[i] === b[j] ? table[(i + 1) * w + j + 1]! + 1 : Math.max(table[(i + 1) * w + j]!, table[i * w + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ op: ' ', line: a[i]!, n: base + i + 1 });
      i++;
      j++;
    } else if (i < n && (j === m || table[(i + 1) * w + j]! >= table[i * w + j + 1]!)) {
      // Removals before additions, so a changed line reads as `-old` then `+new`.
      out.push({ op: '-', line: a[i]!, n: base + i + 1 });
      i++;
    } else {
      out.push({ op: '+', line: b[j]!, n: base + j + 1 });
      j++;
    }
  }
  return out;
}

/**
 * A short unified-style rendering of a diff: changed lines with `context` lines around them,
 * `…` between distant changes, at most `maxLines` lines.
 *
 * @param diff From {@linkcode diffLines}.
 * @param options Context lines and the line cap.
 * @returns The text, or '' when nothing changed.
 *
 * @example
 * ```ts
 * import { diffLines, formatDiff } from './_diff.ts';
 *
 * formatDiff(diffLines(['a', 'b'], ['a', 'c']), { context: 1 }); // '  1 a\n- 2 b\n+ 2 c'
 * ```
 */
export function formatDiff(diff: readonly DiffLine[], options: { context?: number; maxLines?: number } = {}): string {
  const context = options.context ?? 2;
  const maxLines = options.maxLines ?? 40;
  const keep = new Array<boolean>(diff.length).fill(false);
  diff.forEach((d, i) => {
    if (d.op === ' ') return;
    for (let k = Math.max(0, i - context); k <= Math.min(diff.length - 1, i + context); k++) keep[k] = true;
  });
  const lines: string[] = [];
  let gap = false;
  for (let i = 0; i < diff.length; i++) {
    if (!keep[i]) {
      gap = lines.length > 0;
      continue;
    }
    if (gap) lines.push('…');
    gap = false;
    const d = diff[i]!;
    lines.push(`${d.op} ${String(d.n).padStart(4)} ${d.line}`);
  }
  if (lines.length > maxLines)
    return `${lines.slice(0, maxLines).join('\n')}\n… (${lines.length - maxLines} more diff lines)`;
  return lines.join('\n');
}
