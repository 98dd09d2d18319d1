import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ShellWord } from './bash_parser.ts';
import { expandWord } from './_expand_word.ts';

/** At most this many entries of one folder moved or copied are declared where they land. */
export const LANDING_ENTRIES_MAX = 1000;

/** Where a move, copy or link puts its sources; see {@linkcode landings}. */
export interface Landings {
  /** The paths written, as words relative to the command's folder (or absolute). */
  paths: ShellWord[];
  /** What could not be known (a source not known before the command runs, a folder too large), described. */
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
}

/**
 * The paths a move, copy or link writes where its sources land: `DEST/NAME` for each source that
 * goes into the folder DEST, else DEST itself, and for a folder whose entries land in a `.vscode`
 * folder (`mv cfg .vscode`, `cp -r cfg/. .vscode`), those entries (one level). A write to the
 * destination folder alone says too
 * little: `cp conf/tasks.json .vscode/` writes `.vscode/tasks.json`, which runs code when the
 * project is opened, though neither `.vscode` nor the file copied is protected; `mv cfg .vscode`
 * puts `cfg/tasks.json` there.
 *
 * @param sources The source words.
 * @param dest The destination word.
 * @param options Whether the sources go into `dest`, and where words resolve.
 * @returns The landing paths, and what could not be known.
 *
 * @example
 * ```ts
 * import { landings } from './_landings.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * landings([word('conf/tasks.json')], word('.vscode'), { into: true, dir: '/p', home: '/h' }).paths[0]?.value;
 * // '.vscode/tasks.json'
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
      const landing = !options.into || contents ? target : `${target}/${name}`;
      if (!contents) out.paths.push(word(landing));
      // What a folder holds is protected by its own names wherever it lands, but in a folder named
      // `.vscode` (tasks.json, launch.json, settings.json run code): only there are its entries
      // declared (a folder of thousands, declared everywhere, took a move's check from 5 to 130 ms).
      if (path.posix.basename(landing).toLowerCase() !== '.vscode') continue;
      const from =
        options.dir === undefined && !value.startsWith('/') ? undefined : path.resolve(options.dir ?? '/', value);
      const entries = from === undefined ? undefined : folderEntries(from);
      if (entries === 'too many') {
        out.unknown.push(`what \`${source.text}\` holds, landing in \`${landing}\``);
        continue;
      }
      for (const entry of entries ?? []) out.paths.push(word(`${landing}/${entry}`));
    }
  }
  return out;
}

/** The names in a folder (following a link to one); undefined for anything else. */
function folderEntries(dir: string): string[] | 'too many' | undefined {
  try {
    if (!statSync(dir).isDirectory()) return undefined;
    const names = readdirSync(dir);
    return names.length > LANDING_ENTRIES_MAX ? 'too many' : names;
  } catch {
    return undefined;
  }
}

/** Options of {@linkcode declareLandings}. */
export interface DeclareLandingsOptions extends Omit<LandingOptions, 'into'> {
  /**
   * The sources go into `dest` (true), or into it or as it, whichever `dest` is when the command
   * runs (`either`): a part before it may make or remove the folder (`rm -rf .vscode && mv cfg
   * .vscode`), so both are declared.
   */
  into: true | 'either';
  /** Declares a path written. */
  add: (word: ShellWord, access: 'write') => void;
  /** Declares what cannot be known. */
  addUnknown: (what: string, access: 'write') => void;
}

/**
 * Declares the {@linkcode landings} of a move, copy or link as writes, and what cannot be known as
 * unknown writes.
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
    const found = landings(sources, dest, { into, dir: options.dir, home: options.home });
    for (const path of found.paths) options.add(path, 'write');
    for (const what of found.unknown) options.addUnknown(what, 'write');
  }
}
