import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { ResourceAccess } from '@toolshed/core';
import type { SimpleCommand } from './bash_parser.ts';
import { innermostCommand } from './_unwrap.ts';

/**
 * How the paths a part of a command writes may be symbolic links: `all` may be (git checks links
 * out; a shell's script may do anything), `landings` are links where a copy, move or link lands
 * (`ln -s`, `cp -s`), `carried` are where the source is or holds one (`mv`, `cp -r`/`-a`/`-P`, `ln`), and
 * `none` never are (`mkdir`, `tee`, a redirection, `cp` of contents).
 */
export type LinkMaking = 'all' | 'landings' | 'carried' | 'none';

/** One part of a command: where its accesses start in the list, and how its writes may be links. */
export interface CommandPart {
  /** The index of the part's first access. */
  start: number;
  /** How what it writes may be a link (see {@linkcode linksMade}). */
  links: LinkMaking;
}

/** One access made unknown by {@linkcode pathsAnotherPartChanges}. */
export interface ChangedPath {
  /** Its index in the list of accesses. */
  index: number;
  /** Why it is not known, for the unknown entry. */
  why: string;
}

/** Options of {@linkcode pathsAnotherPartChanges}. */
export interface ChangedPathsOptions {
  /** The parts of the command, in order (each part's accesses run up to the next part's start). */
  parts: readonly CommandPart[];
}

/**
 * The accesses one part of a command makes where another part changes what the path is before the
 * guard's view of it holds: a path at or below a path another part writes as a link, or may (`ln
 * -s .git/hooks d && cp x d/pre-commit` lands in .git/hooks; `cp -r vlink d`, `mv vlink d` carry a
 * link to a new name; git checks links out), and a landing whose folder another part writes in
 * (`cp f s/prod.json && cp -r s/. dest`: the guard walked `s` as it was). Parts are taken in any
 * order (a loop runs them again). The accesses of kind `unknown` are left alone.
 *
 * @param accesses The command's accesses, in the order its parts declared them.
 * @param options The parts.
 * @returns The accesses to make unknown, with why.
 *
 * @example
 * ```ts
 * import { pathsAnotherPartChanges } from './_same_command_paths.ts';
 *
 * const accesses = [
 *   { path: '/p/d', access: 'write' as const, from: '/p/.git/hooks' },
 *   { path: '/p/d/pre-commit', access: 'write' as const },
 * ];
 * pathsAnotherPartChanges(accesses, { parts: [{ start: 0, links: 'landings' }, { start: 1, links: 'none' }] })[0]?.index; // 1
 * ```
 */
export function pathsAnotherPartChanges(
  accesses: readonly ResourceAccess[],
  { parts }: ChangedPathsOptions,
): ChangedPath[] {
  const partOf = (index: number) => parts.findLastIndex((p) => p.start <= index);
  const writes = accesses
    .map((a, index) => ({ a, index, part: partOf(index) }))
    .filter(({ a }) => a.access === 'write' && a.kind !== 'unknown');
  const out: ChangedPath[] = [];
  accesses.forEach((b, index) => {
    if (b.kind === 'unknown') return;
    const part = partOf(index);
    for (const w of writes) {
      if (w.part === part || w.part === -1) continue;
      const links = mayBeLink(w.a, parts[w.part]?.links ?? 'none');
      if (links && (b.path === w.a.path || b.path.startsWith(`${w.a.path}/`))) {
        out.push({
          index,
          why: `\`${b.path}\`, at or below ${w.a.path}, which another part of the command makes, maybe as a link that leads elsewhere`,
        });
        return;
      }
      if (b.from !== undefined && related(b.from, w.a.path) && (links || !isRegularFile(b.from))) {
        out.push({
          index,
          why: `what lands at ${b.path} from ${b.from}, in which another part of the command writes ${w.a.path}`,
        });
        return;
      }
    }
  });
  return out;
}

/** Whether a path a part writes may be, or hold, a link, by how the part makes links. */
function mayBeLink(write: ResourceAccess, links: LinkMaking): boolean {
  if (links === 'all') return true;
  if (links === 'none' || write.from === undefined) return false;
  return links === 'landings' || carriesLinks(write.from);
}

/** Whether a copy or move of `source` may carry a link: it is one, holds one, is not there yet, or is too large to look through. */
function carriesLinks(source: string): boolean {
  let left = LINK_WALK_LIMIT;
  const walk = (folder: string): boolean => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return true;
    }
    for (const e of entries) {
      if (--left < 0 || e.isSymbolicLink()) return true;
      if (e.isDirectory() && walk(path.join(folder, e.name))) return true;
    }
    return false;
  };
  try {
    const stat = lstatSync(source);
    if (stat.isSymbolicLink()) return true;
    return stat.isDirectory() ? walk(source) : false;
  } catch {
    return true;
  }
}

/** How many entries {@linkcode carriesLinks} looks through before it takes a folder to hold a link. */
const LINK_WALK_LIMIT = 2000;

function related(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

function isRegularFile(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}

/** Programs any of whose writes may be symbolic links: git checks them out; a shell's script, eval or source may do anything. */
const LINKERS = new Set(['git', 'bash', 'sh', 'dash', 'zsh', 'ksh', 'eval', 'script', 'source', '.']);

/**
 * How what a part of a command writes may be a link (see {@linkcode LinkMaking}).
 *
 * @param cmd The part.
 * @returns How its writes may be links.
 *
 * @example
 * ```ts
 * import { analyzeCommand } from './bash_parser.ts';
 * import { linksMade } from './_same_command_paths.ts';
 *
 * linksMade(analyzeCommand('ln -s .git/hooks d').commands[0]!); // 'landings'
 * linksMade(analyzeCommand('cp -r src out').commands[0]!); // 'carried'
 * linksMade(analyzeCommand('mkdir -p build').commands[0]!); // 'none'
 * ```
 */
export function linksMade(cmd: SimpleCommand): LinkMaking {
  if (cmd.kind !== 'command' || !cmd.name) return 'none';
  const words = innermostCommand([cmd.name, ...cmd.args]);
  const head = words?.[0];
  if (!words || !head?.literal) return 'all';
  const name = head.value.replace(/^.*\//, '');
  if (LINKERS.has(name)) return 'all';
  const args = words.slice(1);
  if (name === 'ln')
    return args.some((a) => /^--sy/.test(a.value) || /^-[a-zA-Z]*s/.test(a.value)) ? 'landings' : 'carried';
  if (name === 'mv') return 'carried';
  // cp -s makes each landing a link to its source, as ln -s does.
  if (name === 'cp' && args.some((a) => /^--sy/.test(a.value) || /^-[a-zA-Z]*s/.test(a.value))) return 'landings';
  // cp follows links and copies contents, but with -r, -a, -d, -P (links kept), -s or -l.
  if (name === 'cp' && args.some((a) => /^-[a-zA-Z]*[rRadPsl]/.test(a.value) || /^--(r|a|no-d|p|sy|l)/.test(a.value)))
    return 'carried';
  return 'none';
}
