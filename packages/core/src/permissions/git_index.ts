import { statSync } from 'node:fs';
import { readRegularFileSync } from '../read_regular_file.ts';

/**
 * What a repository's index (`.git/index`) holds: the paths of the files git tracks, which
 * `git restore DIR` and `git checkout -- DIR` write back, including files deleted from the work
 * tree since they were staged.
 */
export interface GitIndexPaths {
  /** The tracked paths, relative to the top of the work tree, `/`-separated, in the index's order. */
  paths: string[];
  /**
   * A sparse index's folders (relative, ending in `/`): what git tracks below one is not listed,
   * so anything below it may be written.
   */
  sparseFolders: string[];
  /**
   * The submodules among `paths` (gitlinks): folders of another repository, whose files this index
   * does not list.
   */
  gitlinks: string[];
}

/** Larger than the index of any repository (the Linux kernel's is about 10 MB): past it, not read. */
const MAX_INDEX_BYTES = 1024 * 1024 * 1024;

/** The index formats read here (2, 3 and 4); git writes no others. */
const VERSIONS = [2, 3, 4];

/**
 * Reads the paths of a git index file, as git's index format says (versions 2 to 4, SHA-1 or
 * SHA-256 object names, a sparse index's folder entries). Why not a library: the npm packages
 * that read an index (isomorphic-git's `GitIndex`) bring a whole git implementation, and the
 * guard needs the paths alone.
 *
 * @param bytes The index file's bytes.
 * @returns The paths, or undefined when the bytes are not an index read here: another version,
 *   cut short, or a split index (`link` extension: the rest of its paths are in another file).
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { parseGitIndex } from './git_index.ts';
 *
 * parseGitIndex(readFileSync('/repo/.git/index'))?.paths; // ['README.md', 'src/a.ts']
 * ```
 */
export function parseGitIndex(bytes: Uint8Array): GitIndexPaths | undefined {
  // The object names' length is not in the header: SHA-1 (20) and SHA-256 (32) are tried, and
  // only one reads to the trailing checksum exactly.
  return readEntries(bytes, 20) ?? readEntries(bytes, 32);
}

function readEntries(bytes: Uint8Array, hashLength: number): GitIndexPaths | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 + hashLength || text(bytes, 0, 4) !== 'DIRC') return undefined;
  const version = view.getUint32(4);
  const count = view.getUint32(8);
  if (!VERSIONS.includes(version)) return undefined;
  const paths: string[] = [];
  const sparseFolders: string[] = [];
  const gitlinks: string[] = [];
  const end = bytes.length - hashLength;
  let at = 12;
  let previous: Uint8Array = new Uint8Array(0);
  for (let i = 0; i < count; i++) {
    const start = at;
    // ctime, mtime (seconds, nanoseconds), dev, ino, mode, uid, gid, size: ten 32-bit numbers.
    if (at + 40 + hashLength + 2 > end) return undefined;
    const mode = view.getUint32(at + 24);
    at += 40 + hashLength;
    const flags = view.getUint16(at);
    at += 2;
    if (flags & 0x4000) {
      if (version < 3) return undefined;
      at += 2;
    }
    let name: string;
    if (version === 4) {
      // The name is the previous one less its last `strip` bytes, and what follows up to a NUL.
      const { value: strip, next } = varint(bytes, at);
      if (next < 0 || strip > previous.length) return undefined;
      const nul = bytes.indexOf(0, next);
      if (nul < 0 || nul >= end) return undefined;
      const whole = Buffer.concat([previous.subarray(0, previous.length - strip), bytes.subarray(next, nul)]);
      name = whole.toString('utf8');
      previous = whole;
      at = nul + 1;
    } else {
      const nul = bytes.indexOf(0, at);
      if (nul < 0 || nul >= end) return undefined;
      const length = flags & 0xfff;
      if (length !== 0xfff && length !== nul - at) return undefined;
      name = text(bytes, at, nul);
      previous = bytes.subarray(at, nul);
      // Entries are padded with 1 to 8 NULs to a multiple of eight bytes.
      at = start + ((nul - start + 8) & ~7);
      if (at > end) return undefined;
    }
    if ((mode & 0o170000) === 0o040000) sparseFolders.push(name);
    else paths.push(name);
    if ((mode & 0o170000) === 0o160000) gitlinks.push(name);
  }
  // Extensions, each a 4-byte signature and a 32-bit size, up to the checksum.
  while (at < end) {
    if (at + 8 > end) return undefined;
    const signature = text(bytes, at, at + 4);
    if (signature === 'link') return undefined;
    at += 8 + view.getUint32(at + 4);
  }
  return at === end ? { paths, sparseFolders, gitlinks } : undefined;
}

/** git's offset varint (as in pack files): 7 bits per byte, each continuation adding one. */
function varint(bytes: Uint8Array, at: number): { value: number; next: number } {
  let byte = bytes[at++];
  if (byte === undefined) return { value: 0, next: -1 };
  let value = byte & 0x7f;
  while (byte & 0x80) {
    byte = bytes[at++];
    if (byte === undefined || value > 0xffffff) return { value: 0, next: -1 };
    value = ((value + 1) << 7) | (byte & 0x7f);
  }
  return { value, next: at };
}

function text(bytes: Uint8Array, from: number, to: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString('utf8');
}

/** The last readings, by index file, kept while the file is unchanged (the oldest dropped past 16). */
const readings = new Map<string, { stamp: string; paths: GitIndexPaths | undefined }>();

/**
 * The paths of an index file as it is now; a reading is reused while the file's inode, size and
 * times are the same.
 *
 * @param file The index file (`<git dir>/index`).
 * @returns The paths; `{ paths: [] }` when there is no index (a repository with nothing staged);
 *   undefined when it cannot be read or is not an index read here.
 *
 * @example
 * ```ts
 * import { readGitIndex } from './git_index.ts';
 *
 * readGitIndex('/repo/.git/index')?.paths.includes('.claude/settings.json');
 * ```
 */
export function readGitIndex(file: string): GitIndexPaths | undefined {
  let stamp: string;
  try {
    const st = statSync(file, { bigint: true });
    stamp = `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? { paths: [], sparseFolders: [], gitlinks: [] } : undefined;
  }
  const known = readings.get(file);
  if (known?.stamp === stamp) return known.paths;
  let paths: GitIndexPaths | undefined;
  // Only a regular file is read: an index that is a FIFO or a device would hang the check.
  const bytes = readRegularFileSync(file, { maxBytes: MAX_INDEX_BYTES });
  paths = bytes === undefined ? undefined : parseGitIndex(bytes);
  readings.delete(file);
  readings.set(file, { stamp, paths });
  if (readings.size > 16) readings.delete(readings.keys().next().value!);
  return paths;
}
