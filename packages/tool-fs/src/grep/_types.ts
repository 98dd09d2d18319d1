/** One search, as both engines take it. */
export interface GrepQuery {
  pattern: string;
  /** The folder the engine runs in; result paths are relative to it. */
  dir: string;
  /** A file (relative to `dir`) to search instead of the whole folder. */
  file?: string;
  mode: 'content' | 'files_with_matches' | 'count';
  before: number;
  after: number;
  ignoreCase: boolean;
  multiline: boolean;
  /** ripgrep-style globs (`*.ts`, `!*.test.ts`). */
  globs: string[];
  /** A ripgrep file type (`ts`, `py`). */
  type?: string;
}

/**
 * Where an engine puts what it finds, as it finds it (paths relative to `dir`): so the memory a
 * search holds follows what is returned, and the engine stops once {@linkcode GrepSink.full}.
 */
export interface GrepSink {
  /** files_with_matches: a file with a match, with its mtime when the engine has it. */
  file(rel: string, mtimeMs?: number): void;
  /** count: a file's count of matches. */
  count(rel: string, count: number): void;
  /**
   * content: the next printed line (`n` 1-based, `match` false for a context line, the line
   * already clipped to {@linkcode MAX_GREP_COLUMNS}); files come in path order, a file's lines in
   * ascending order. `text` is the line from `textStart` on: an engine that has it as `N:line`
   * (ripgrep) gives that, with `textStart` after the `:`, so it is not cut and joined again.
   */
  line(rel: string, n: number, match: boolean, text: string, textStart?: number): void;
  /**
   * content, optional: false once it is known that runs of lines cannot be taken whole (see
   * {@linkcode GrepSink.canTakeRun}), so an engine need not look for them.
   */
  readonly takesRuns?: boolean;
  /**
   * content, optional: whether a run of `count` match lines, in which the files `files` (relative,
   * as printed; in order) start, may be given whole to {@linkcode GrepSink.takeRun} rather than
   * line by line: the page is not cut inside it, no file is denied, and paths are shown as
   * printed. Changes nothing.
   */
  canTakeRun?(files: readonly string[], count: number): boolean;
  /**
   * content, optional: a run {@linkcode GrepSink.canTakeRun} accepted, as UTF-8 bytes that read
   * as the lines are printed (`path:N:text\n` each, the last one too).
   */
  takeRun?(bytes: Buffer, files: readonly string[], count: number): void;
  /**
   * Optional: whether everything found in `rel` would be dropped (a deny rule covers it), so
   * that an engine that reads files itself (the JS engine) skips it: a file the caller may not
   * read is not read, cannot hold the search up, and is never named in an error.
   */
  skips?(rel: string): boolean;
  /** content, optional: lines it takes before it is full (offset + limit); unset or Infinity for all. */
  readonly keeps?: number;
  /** True once the rest of the search cannot change what is returned: the engine may stop. */
  readonly full: boolean;
}

/** Columns after which a line is clipped, as `rg --max-columns 500 --max-columns-preview` does. */
export const MAX_GREP_COLUMNS = 500;

/** What a clipped line ends with (ripgrep's own marker). */
export const CLIPPED_MARKER = ' [... omitted end of long line]';

/**
 * An error in the query that the model must fix (a bad regex, an unknown type): shown as is.
 *
 * @example
 * ```ts
 * import { GrepQueryError } from './_types.ts';
 *
 * throw new GrepQueryError('unrecognized file type: foo');
 * ```
 */
export class GrepQueryError extends Error {
  /**
   * @param message What was wrong.
   */
  constructor(message: string) {
    // The name stays `Error`, so the pipeline shows the model the message alone.
    super(message);
  }
}
