/**
 * Puts the output of an unsorted (parallel) ripgrep content search into the order `--sort path`
 * prints it in: ripgrep writes each file's lines together even when it searches with several
 * threads, so the output is a sequence of per-file blocks (`path\0N:text\n` lines), and sorting
 * the blocks by path, as ripgrep's walk visits them (name by name, folder by folder), gives the
 * sorted output byte for byte, less the `--` context separators, which the page rebuilds from line
 * numbers anyway. Written here because it works on the raw bytes: no decoding, no line copies.
 *
 * @param output The whole output of the run, every line ending in `\n`.
 * @returns The same lines in path order (one new buffer), with no `--` separator lines.
 *
 * @example
 * ```ts
 * import { inPathOrder } from './_rg_path_order.ts';
 *
 * inPathOrder(Buffer.from('b\u00001:x\na/c\u00002:y\n')).toString(); // 'a/c\u00002:y\nb\u00001:x\n'
 * ```
 */
export function inPathOrder(output: Buffer): Buffer {
  const blocks: { key: Buffer; start: number; end: number }[] = [];
  let current: { key: Buffer; start: number; end: number } | undefined;
  let pos = 0;
  const length = output.length;
  while (pos < length) {
    let nl = output.indexOf(10, pos);
    if (nl === -1) nl = length - 1;
    const nul = output.indexOf(0, pos);
    // A `--` separator has no path: dropped, so a block never spans it.
    if (nul !== -1 && nul < nl) {
      const same = current !== undefined && samePath(output, pos, nul, current.key);
      if (same && current!.end === pos) current!.end = nl + 1;
      else {
        current = { key: same ? current!.key : output.subarray(pos, nul), start: pos, end: nl + 1 };
        blocks.push(current);
      }
    }
    pos = nl + 1;
  }
  // Stable: the blocks of one file (split only by separators) keep their order.
  const order = blocks.map((_, i) => i).sort((a, b) => comparePathBytes(blocks[a]!.key, blocks[b]!.key) || a - b);
  const sorted = Buffer.allocUnsafe(order.reduce((n, i) => n + blocks[i]!.end - blocks[i]!.start, 0));
  let at = 0;
  for (const i of order) at += output.copy(sorted, at, blocks[i]!.start, blocks[i]!.end);
  return sorted;
}

function samePath(output: Buffer, pos: number, nul: number, key: Buffer): boolean {
  if (nul - pos !== key.length) return false;
  for (let i = key.length - 1; i >= 0; i--) if (output[pos + i] !== key[i]) return false;
  return true;
}

/**
 * Compares two paths as ripgrep's sorted walk orders them: byte by byte, the folder separator
 * before every other byte (so `a/b` comes before `a-c` and `a.b`, as the folder `a` is visited
 * before the names that only start with it).
 *
 * @param a A path as bytes.
 * @param b Another.
 * @returns Negative, zero or positive.
 *
 * @example
 * ```ts
 * import { comparePathBytes } from './_rg_path_order.ts';
 *
 * comparePathBytes(Buffer.from('a/b'), Buffer.from('a-c')) < 0; // true
 * ```
 */
export function comparePathBytes(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (x === 47) return -1;
    if (y === 47) return 1;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * Whether a line of ripgrep's `--null` output that holds no NUL is part of a path: a file name
 * with a line break in it is printed across lines, the NUL only after its last part. The other
 * lines without a NUL are the `--` between context groups and the warning about a binary file.
 * A record after such a part cannot be read safely line by line (its path is not what precedes
 * its NUL on its line), so callers leave it out.
 *
 * @param line The line, without its `\n`.
 * @returns True for a part of a path.
 *
 * @example
 * ```ts
 * import { isPathPart } from './_rg_path_order.ts';
 *
 * isPathPart('private/x'); // true
 * isPathPart('--'); // false
 * ```
 */
export function isPathPart(line: string): boolean {
  return line !== '--' && line !== '' && !BINARY_WARNING.test(line);
}

/** ripgrep's note after the matches of a binary file (`path: WARNING: stopped searching binary file …`). */
const BINARY_WARNING = /: (WARNING: stopped searching binary file|binary file matches)/;

/**
 * Whether `output` holds a part of a path on a line of its own ({@linkcode isPathPart}).
 *
 * @param output Lines of ripgrep's `--null` output.
 * @returns True when some line without a NUL is a part of a path.
 *
 * @example
 * ```ts
 * import { hasPathParts } from './_rg_path_order.ts';
 *
 * hasPathParts(Buffer.from('a\u0000 1:x\n--\n')); // false
 * ```
 */
export function hasPathParts(output: Buffer): boolean {
  let pos = 0;
  while (pos < output.length) {
    let nl = output.indexOf(10, pos);
    if (nl === -1) nl = output.length;
    const nul = output.indexOf(0, pos);
    if ((nul === -1 || nul > nl) && isPathPart(output.toString('utf8', pos, nl))) return true;
    pos = nl + 1;
  }
  return false;
}

/**
 * Lines with a path (`path\0…\n`) in a run of ripgrep's `--null` output; `--` separators and
 * parts of a path printed on a line of their own are not.
 *
 * @param bytes Whole lines.
 * @returns How many are records.
 *
 * @example
 * ```ts
 * import { countRecords } from './_rg_path_order.ts';
 *
 * countRecords(Buffer.from('a\u00001:x\n--\na\u00003:y\n')); // 2
 * ```
 */
export function countRecords(bytes: Buffer): number {
  let count = 0;
  let pos = 0;
  while (pos < bytes.length) {
    let nl = bytes.indexOf(10, pos);
    if (nl === -1) nl = bytes.length;
    const nul = bytes.indexOf(0, pos);
    if (nul !== -1 && nul < nl) count++;
    pos = nl + 1;
  }
  return count;
}

/**
 * Leaves out the first `count` records (lines with a NUL after their path) of a run of whole
 * lines, and the lines without one (`--` separators) among them.
 *
 * @param bytes Lines, each ending in `\n`.
 * @param count Records still to leave out.
 * @returns What follows them (a view of `bytes`), and how many are still to leave out.
 *
 * @example
 * ```ts
 * import { dropRecords } from './_rg_path_order.ts';
 *
 * dropRecords(Buffer.from('a\u00001:x\n--\na\u00003:y\n'), 1).rest.toString(); // '--\na\u00003:y\n'
 * ```
 */
export function dropRecords(bytes: Buffer, count: number): { rest: Buffer; left: number } {
  let pos = 0;
  while (count > 0 && pos < bytes.length) {
    let nl = bytes.indexOf(10, pos);
    if (nl === -1) nl = bytes.length - 1;
    const nul = bytes.indexOf(0, pos);
    if (nul !== -1 && nul < nl) count--;
    pos = nl + 1;
  }
  return { rest: bytes.subarray(pos), left: count };
}
