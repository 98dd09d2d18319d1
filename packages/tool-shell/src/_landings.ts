import path from 'node:path';
import type { ShellWord } from './bash_parser.ts';
import { expandWord } from './_expand_word.ts';

/** One path a move, copy or link writes, and the folder whose contents land there, if the source may be one. */
export interface Landing {
  /** The path written, as a word relative to the command's folder (or absolute). */
  word: ShellWord;
  /** The source, absolute: what it holds (when a folder) lands below `word` (see `ResourceAccess.from`). */
  from: string | undefined;
}

/** Where a move, copy or link puts its sources; see {@linkcode landings}. */
export interface Landings {
  /** The paths written. */
  paths: Landing[];
  /** What could not be known (a source not known before the command runs), described. */
  unknown: string[];
}

/** Options of {@linkcode landings}. */
export interface LandingOptions {
  /** The sources go into the folder `dest` (`cp a b DIR`, `-t DIR`, an existing folder), rather than becoming `dest`. */
  into: boolean;
  /** The folder the command resolves its words in; undefined when not known. */
  dir: string | undefined;
  /** What `~` stands for. */
  home: string;
  /** `ln -s`: a relative source is where the link leads from its own folder, not the command's. @default false */
  symbolic?: boolean | undefined;
  /** `cp --parents`: a source lands at its whole path below `dest` (`a/b/f` at `DEST/a/b/f`). @default false */
  parents?: boolean | undefined;
}

/**
 * The paths a move, copy or link writes where its sources land: `DEST/NAME` for each source that
 * goes into the folder DEST, else DEST itself (`cp -r dir/. DEST`: DEST, what dir holds landing in
 * it), each with its source: what a folder holds lands below, at any depth, and core judges each
 * entry where it lands (`ResourceAccess.from`). A write to the destination folder alone says too
 * little: `cp conf/tasks.json .vscode/` writes `.vscode/tasks.json`, which runs code when the
 * project is opened, though neither `.vscode` nor the file copied is protected; `mv cfg .vscode`
 * puts `cfg/tasks.json` there, `cp -r node_modules/x packages/x` a `package.json` whose scripts an
 * allowed `npm test` runs, `mv stuff dest` a `stuff/a/.husky/pre-commit`.
 *
 * @param sources The source words.
 * @param dest The destination word.
 * @param options Whether the sources go into `dest`, and where words resolve.
 * @returns The landing paths with their sources, and what could not be known.
 *
 * @example
 * ```ts
 * import { landings } from './_landings.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * const [first] = landings([word('conf')], word('.vscode'), { into: true, dir: '/p', home: '/h' }).paths;
 * first?.word.value; // '.vscode/conf'
 * first?.from; // '/p/conf'
 * ```
 */
export function landings(sources: readonly ShellWord[], dest: ShellWord, options: LandingOptions): Landings {
  const out: Landings = { paths: [], unknown: [] };
  const ctx = { cwd: options.dir, home: options.home };
  const to = expandWord(dest, ctx);
  // A destination not known is declared as unknown by the caller already.
  if (to?.length !== 1) return out;
  const target = to[0]!.replace(/(.)\/+$/, '$1');
  const word = (value: string): ShellWord => ({ text: value, value, literal: true });
  for (const source of sources) {
    const values = expandWord(source, ctx);
    if (values === undefined) {
      out.unknown.push(`where \`${source.text}\` lands in \`${dest.text}\``);
      continue;
    }
    for (const value of values) {
      const name = path.posix.basename(value.replace(/\/+$/, ''));
      // `cp -r dir/. DEST`: what dir holds lands in DEST itself.
      const contents = name === '.' || name === '';
      const below = options.parents === true ? path.posix.normalize(value).replace(/^(\/|\.\/)+|\/+$/g, '') : name;
      const landing = !options.into || contents ? target : `${target}/${below}`;
      out.paths.push({ word: word(landing), from: sourceFolder(value, landing, options) });
    }
  }
  return out;
}

/**
 * Where a source is, absolute; undefined when the command's folder is not known. A symbolic link's
 * relative source is read from the link's own folder, as the kernel follows it.
 */
function sourceFolder(value: string, landing: string, options: LandingOptions): string | undefined {
  if (value.startsWith('/')) return path.posix.normalize(value);
  if (options.dir === undefined) return undefined;
  const base = options.symbolic === true ? path.posix.resolve(options.dir, path.posix.dirname(landing)) : options.dir;
  return path.posix.resolve(base, value);
}

/** Options of {@linkcode declareLandings}. */
export interface DeclareLandingsOptions extends Omit<LandingOptions, 'into'> {
  /**
   * The sources go into `dest` (true), or into it or as it, whichever `dest` is when the command
   * runs (`either`): a part before it may make or remove the folder (`rm -rf .vscode && mv cfg
   * .vscode`), so both are declared.
   */
  into: true | 'either';
  /** Declares a path written, and the folder whose contents land there (see `ResourceAccess.from`). */
  add: (word: ShellWord, access: 'write', from?: string) => void;
  /** Declares what cannot be known. */
  addUnknown: (what: string, access: 'write') => void;
}

/**
 * Declares the {@linkcode landings} of a move, copy or link as writes (each with the folder whose
 * contents land there), and what cannot be known as unknown writes.
 *
 * @param sources The source words.
 * @param dest The destination word.
 * @param options Into `dest` or either way, where words resolve, and the declaring functions.
 *
 * @example
 * ```ts
 * import { declareLandings } from './_landings.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * const written: string[] = [];
 * declareLandings([word('tasks.json')], word('.vscode'), {
 *   into: 'either',
 *   dir: '/p',
 *   home: '/h',
 *   add: (w) => void written.push(w.value),
 *   addUnknown: () => {},
 * });
 * written; // ['.vscode/tasks.json', '.vscode']
 * ```
 */
export function declareLandings(sources: readonly ShellWord[], dest: ShellWord, options: DeclareLandingsOptions): void {
  for (const into of options.into === true ? [true] : [true, false]) {
    const { dir, home, symbolic, parents } = options;
    const found = landings(sources, dest, { into, dir, home, symbolic, parents });
    for (const { word, from } of found.paths) options.add(word, 'write', from);
    for (const what of found.unknown) options.addUnknown(what, 'write');
  }
}
