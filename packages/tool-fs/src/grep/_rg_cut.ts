import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import ignore, { type Ignore } from 'ignore';

/**
 * The shares of a folder, in the order `rg --sort path` walks it, that a content search for a
 * page is cut into: two rounds of pieces on two cores, so that a page ending anywhere is found by
 * pieces searched side by side, while a search of the whole tree starts few processes (each
 * costs a few milliseconds to start).
 */
export const PIECE_SHARES: readonly number[] = [0.25, 0.25, 0.25, 0.25];

/** One piece of a cut tree. */
export interface CutPiece {
  /** The `--glob '!/…'` arguments that leave out everything but the piece. */
  args: string[];
  /**
   * Where it starts in walk order (undefined for the first piece): the path of its first file or
   * folder, or of the highest folder that entry is the first of. A path is in this piece when it
   * comes at or after this one and before the next piece's.
   */
  from?: Buffer | undefined;
}

/** Options of {@linkcode cutTree}. */
export interface CutOptions {
  /** Folders read to see the tree's shape, at most (whole levels, breadth first). @default 64 */
  maxReads?: number | undefined;
  /** `--glob` arguments one piece may need, at most; past it the tree is not cut. @default 200 */
  maxGlobs?: number | undefined;
}

/** A file or folder seen while reading the tree's shape. */
interface Node {
  /** Its path from the root, one name per part. */
  parts: string[];
  /** Read, and what it holds, in walk order; undefined for a file or a folder not read. */
  children?: Node[];
  /** Its leaves' indexes, `[first, end)`. */
  first: number;
  end: number;
  /** An ignore file of a folder read says ripgrep leaves it out: it weighs nothing. */
  ignored?: boolean;
  /** The ignore rules of the folders read down to it (a folder's own last), for a folder read. */
  rules?: IgnoreRules[];
}

/** A folder's ignore files, as one matcher of paths relative to it. */
interface IgnoreRules {
  base: number;
  ig: Ignore;
}

/** The ignore files ripgrep reads in a folder, in rising precedence. */
const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore'];

/**
 * Cuts the folder `root` into pieces that together are what `rg --sort path` searches there, in
 * its order, each piece described by the `--glob '!/…'` arguments that leave out everything
 * else: ripgrep run once per piece with those arguments (placed after any glob of the caller's,
 * so that they win) prints, piece after piece, the same lines as one sorted run. Exclusions
 * only ever leave files out, so ignore files, the caller's globs and types apply as before.
 *
 * The tree's shape is read breadth first, whole levels at a time, while the next level has
 * folders to spare in `maxReads`; a folder not read weighs what a folder read held on average, a
 * file one, and what the ignore files of the folders read leave out (`node_modules/`) nothing.
 * The pieces follow `shares` of that weight: an estimate, which only moves where the cuts fall,
 * never what is found. `.git` is left out (the search skips it).
 *
 * @param root The folder ripgrep runs in (`/proc/self/fd/N` included).
 * @param shares Each piece's share of the tree, in order (they add up to 1).
 * @param options Bounds on the reading and on each piece's globs.
 * A name made after the cut, in a folder whose entries were split between pieces, is left out by
 * no piece: each prints it, and {@linkcode CutPiece.from} says which one it belongs to.
 *
 * @returns Each piece's globs and where it starts, in walk order; undefined when the tree cannot be
 *   cut in two or more (too few entries, a name a glob cannot say exactly, or too many globs).
 *
 * @example
 * ```ts
 * import { cutTree, PIECE_SHARES } from './_rg_cut.ts';
 *
 * const pieces = await cutTree('/repo', PIECE_SHARES);
 * // e.g. [{ args: ['--glob', '!/src/z', '--glob', '!/test'] }, { args: ['--glob', '!/src/a', …], from: Buffer.from('src/z') }, …]
 * ```
 */
export async function cutTree(
  root: string,
  shares: readonly number[],
  options: CutOptions = {},
): Promise<CutPiece[] | undefined> {
  const maxReads = options.maxReads ?? 64;
  const top: Node = { parts: [], first: 0, end: 0 };
  let frontier: Node[] = [top];
  let reads = 0;
  let folderWeight = 1;
  while (frontier.length > 0 && reads + frontier.length <= maxReads) {
    const lists = await Promise.all(frontier.map((node) => readFolder(root, node.parts)));
    reads += frontier.length;
    const next: Node[] = [];
    let entries = 0;
    for (let i = 0; i < frontier.length; i++) {
      const list = lists[i];
      // Unreadable or too big to sort here: a leaf, as ripgrep will find it (the root: no cut).
      if (list === undefined) {
        if (frontier[i] === top) return undefined;
        continue;
      }
      const node = frontier[i]!;
      const rules = await withIgnoreFiles(root, node, list);
      const children: Node[] = [];
      for (const entry of list) {
        const name = exactName(entry.name);
        if (name === undefined) return undefined;
        if (name === '.git') continue;
        const child: Node = { parts: [...node.parts, name], first: 0, end: 0, rules };
        if (isIgnored(rules, child.parts, entry.isDirectory())) child.ignored = true;
        else if (entry.isDirectory()) next.push(child);
        children.push(child);
      }
      node.children = children;
      entries += children.length;
    }
    folderWeight = Math.max(1, entries / frontier.length);
    frontier = next;
  }
  const unread = new Set(frontier);
  const weights: number[] = [];
  const leaves: Node[] = [];
  const number = (node: Node): void => {
    node.first = leaves.length;
    if (node.children === undefined) {
      leaves.push(node);
      weights.push(node.ignored ? 0 : unread.has(node) ? folderWeight : 1);
    } else for (const child of node.children) number(child);
    node.end = leaves.length;
  };
  number(top);
  const bounds = cutPoints(weights, shares);
  if (bounds.length < 3) return undefined;
  const maxGlobs = options.maxGlobs ?? 200;
  const pieces: CutPiece[] = [];
  for (let p = 0; p + 1 < bounds.length; p++) {
    const globs: string[] = [];
    for (const child of top.children ?? []) leaveOut(child, bounds[p]!, bounds[p + 1]!, globs);
    if (globs.length > maxGlobs) return undefined;
    const args = globs.flatMap((g) => ['--glob', g]);
    pieces.push(p === 0 ? { args } : { args, from: Buffer.from(startOf(top, bounds[p]!).parts.join('/')) });
  }
  return pieces;
}

/**
 * Where the piece that starts at leaf `first` starts in walk order: at the highest folder whose
 * first leaf that is (or the leaf itself). A name made after the cut in that folder before its
 * first entry, or the folder swapped for a file, is printed only by the runs that do not leave
 * the folder out, the piece that starts there among them: so it belongs to that piece, not to the
 * piece before, whose run leaves the whole folder out.
 */
function startOf(top: Node, first: number): Node {
  let node = top;
  for (;;) {
    const child = node.children!.find((c) => c.first <= first && first < c.end)!;
    if (child.first === first || child.children === undefined) return child;
    node = child;
  }
}

/**
 * The ignore rules for what `node` holds: its parents' and its own ignore files. Only weights
 * follow from them (an estimate: global excludes and `.git/info/exclude` are not read), never
 * what is searched, which is ripgrep's own decision.
 */
async function withIgnoreFiles(root: string, node: Node, list: readonly Dirent<Buffer>[]): Promise<IgnoreRules[]> {
  const inherited = node.rules ?? [];
  const files = IGNORE_FILES.filter((f) => list.some((e) => e.isFile() && e.name.toString() === f));
  if (files.length === 0) return inherited;
  const ig = ignore({ allowRelativePaths: true });
  for (const file of files) {
    try {
      ig.add(await readFile([root, ...node.parts, file].join('/'), 'utf8'));
    } catch {
      // Unreadable: ripgrep cannot read it either.
    }
  }
  return [...inherited, { base: node.parts.length, ig }];
}

/** Whether the deepest rule that has a say about `parts` ignores it. */
function isIgnored(rules: readonly IgnoreRules[], parts: readonly string[], dir: boolean): boolean {
  let ignored = false;
  for (const { base, ig } of rules) {
    let verdict: { ignored: boolean; unignored: boolean };
    try {
      verdict = ig.test(parts.slice(base).join('/') + (dir ? '/' : ''));
    } catch {
      continue;
    }
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

/** Entries a folder may have to be read for a cut (a bigger one is left whole). */
const MAX_FOLDER_ENTRIES = 4096;

/**
 * The entries of a folder sorted as ripgrep's sorted walk visits them (by name, byte by byte);
 * undefined when unreadable or past {@linkcode MAX_FOLDER_ENTRIES}. The folders of a level are
 * read at once, off this thread, one `readdir` each (an `opendir` walk, which could stop early,
 * took four thread-pool turns a folder and made a dense page 10% slower).
 */
async function readFolder(root: string, parts: readonly string[]): Promise<Dirent<Buffer>[] | undefined> {
  try {
    const list = await readdir([root, ...parts].join('/'), { withFileTypes: true, encoding: 'buffer' });
    return list.length > MAX_FOLDER_ENTRIES ? undefined : list.sort((a, b) => Buffer.compare(a.name, b.name));
  } catch {
    return undefined;
  }
}

/** The name as text, when a glob can say it exactly: UTF-8 that reads back the same, no line break. */
function exactName(name: Buffer): string | undefined {
  const text = name.toString('utf8');
  if (!Buffer.from(text).equals(name) || /[\n\r]/.test(text)) return undefined;
  return text;
}

/**
 * Where the leaves are cut: `[0, …, leaves]`, each inner point the first leaf at which the weight
 * before it reaches the next share's running total; points that fall together are one.
 *
 * @param weights Each leaf's weight, in walk order.
 * @param shares The pieces' shares.
 * @returns The cut points, ascending, from 0 to `weights.length`.
 *
 * @example
 * ```ts
 * import { cutPoints } from './_rg_cut.ts';
 *
 * cutPoints([1, 1, 1, 1], [0.5, 0.5]); // [0, 2, 4]
 * ```
 */
export function cutPoints(weights: readonly number[], shares: readonly number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const points = [0];
  let before = 0;
  let leaf = 0;
  let target = 0;
  for (let s = 0; s + 1 < shares.length; s++) {
    target += shares[s]! * total;
    while (leaf < weights.length && before < target) before += weights[leaf++]!;
    if (leaf > points.at(-1)! && leaf < weights.length) points.push(leaf);
  }
  if (weights.length > 0) points.push(weights.length);
  return points;
}

/** Adds the globs that leave out what of `node` lies outside the leaves `[from, to)`. */
function leaveOut(node: Node, from: number, to: number, globs: string[]): void {
  // Nothing ripgrep could print.
  if (node.first === node.end) return;
  if (node.end <= from || node.first >= to) {
    globs.push(`!/${node.parts.map(escapeGlob).join('/')}`);
    return;
  }
  if (node.first >= from && node.end <= to) return;
  for (const child of node.children ?? []) leaveOut(child, from, to, globs);
}

/**
 * A name as a part of a gitignore-style glob (what `rg --glob` reads) that matches only it:
 * the glob's special characters escaped, and trailing white space, which would be dropped.
 *
 * @param name A file or folder name.
 * @returns The glob part.
 *
 * @example
 * ```ts
 * import { escapeGlob } from './_rg_cut.ts';
 *
 * escapeGlob('x[1]*'); // 'x\\[1\\]\\*'
 * escapeGlob('a\t'); // 'a[\t]'
 * ```
 */
export function escapeGlob(name: string): string {
  // Trailing white space (a tab, a no-break space…) is trimmed from a glob unless it ends in
  // `\ `; each such character is written as a class of itself instead, which nothing trims.
  return name.replace(/[\\*?[\]{}!]/g, '\\$&').replace(/\s+$/u, (space) => [...space].map((c) => `[${c}]`).join(''));
}
