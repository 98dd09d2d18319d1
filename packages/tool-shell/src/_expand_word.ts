import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { ShellWord } from './bash_parser.ts';

/** What {@linkcode expandWord} resolves against. */
export interface ExpandContext {
  /** The shell's directory (for `~+` and relative globs); undefined when not known. */
  cwd: string | undefined;
  /** What `~` stands for. */
  home: string;
  /** Told of every directory a glob lists (bash reads it to expand the pattern). */
  onList?: (dir: string) => void;
}

/** At most this many words from one brace list or glob; past it the word is not expanded. */
const MAX_EXPANSION = 256;

/**
 * The words bash makes of one word, when that can be proven before it runs: tilde (`~`, `~/x`,
 * `~+`), brace lists (`{a,b}`) and globs (`*`, `?`, `[…]`, matched against the directory now,
 * hidden files only by a pattern that starts with a dot, the word itself when nothing
 * matches). Anything else (a variable, a substitution, `~user`, `~-`, a sequence `{1..9}`, a
 * character class, quotes mixed with patterns) gives undefined: not known.
 *
 * @param word The word as parsed.
 * @param ctx The directory and home directory.
 * @returns The values, or undefined when they cannot be known.
 *
 * @example
 * ```ts
 * import { expandWord } from './_expand_word.ts';
 *
 * expandWord({ text: '~/a', value: '~/a', literal: true }, { cwd: '/p', home: '/h' }); // ['/h/a']
 * expandWord({ text: '$F', value: '$F', literal: false }, { cwd: '/p', home: '/h' });  // undefined
 * ```
 */
export function expandWord(word: ShellWord, ctx: ExpandContext): string[] | undefined {
  if (word.literal) {
    const t = tilde(word.text, word.value, ctx);
    return t === UNKNOWN ? undefined : [t ?? word.value];
  }
  // Only plain words: no quotes, escapes, expansions or extended patterns.
  if (!/^[A-Za-z0-9._\-/+,@%:=*?[\]!{}^~]+$/.test(word.text) || word.text.includes('[:')) return undefined;
  const braced = braces(word.text);
  if (!braced) return undefined;
  const out: string[] = [];
  for (const item of braced) {
    const t = tilde(item, item, ctx);
    if (t === UNKNOWN) return undefined;
    const value = t ?? item;
    const matches = glob(value, ctx.cwd, ctx.onList);
    if (!matches) return undefined;
    out.push(...matches);
    if (out.length > MAX_EXPANSION) return undefined;
  }
  return out;
}

const UNKNOWN = '\0unknown';

/** Tilde expansion of an unquoted leading `~`: undefined when there is none, UNKNOWN when it cannot be known. */
function tilde(text: string, value: string, ctx: ExpandContext): string | undefined {
  if (!text.startsWith('~')) return undefined;
  const slash = value.indexOf('/');
  const prefix = slash === -1 ? value : value.slice(0, slash);
  const rest = slash === -1 ? '' : value.slice(slash);
  if (prefix === '~') return ctx.home + rest;
  if (prefix === '~+') return ctx.cwd === undefined ? UNKNOWN : ctx.cwd + rest;
  return UNKNOWN;
}

/** Bash brace expansion of comma lists; undefined for sequences, or too many words. */
function braces(text: string): string[] | undefined {
  const open = findBrace(text);
  if (open === undefined) return [text];
  const { start, end, parts } = open;
  if (parts === undefined) return undefined;
  const out: string[] = [];
  for (const part of parts) {
    const more = braces(text.slice(0, start) + part + text.slice(end + 1));
    if (!more) return undefined;
    out.push(...more);
    if (out.length > MAX_EXPANSION) return undefined;
  }
  return out;
}

/** The first `{…}` with a comma at its top level: its span and parts; parts undefined for a sequence. */
function findBrace(text: string): { start: number; end: number; parts: string[] | undefined } | undefined {
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    const commas: number[] = [];
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          const inner = text.slice(start + 1, i);
          if (commas.length > 0) {
            const parts: string[] = [];
            let from = start + 1;
            for (const at of commas) {
              parts.push(text.slice(from, at));
              from = at + 1;
            }
            parts.push(text.slice(from, i));
            return { start, end: i, parts };
          }
          if (/^(-?\d+\.\.-?\d+|[A-Za-z]\.\.[A-Za-z])(\.\.-?\d+)?$/.test(inner))
            return { start, end: i, parts: undefined };
          break;
        }
      } else if (c === ',' && depth === 1) commas.push(i);
    }
  }
  return undefined;
}

/** Glob expansion against the directory now; undefined when the directory is not known. */
function glob(
  value: string,
  cwd: string | undefined,
  onList: ((dir: string) => void) | undefined,
): string[] | undefined {
  if (!/[*?[]/.test(value)) return [value];
  const absolute = value.startsWith('/');
  if (!absolute && cwd === undefined) return undefined;
  const segments = value.split('/');
  let bases = [absolute ? '/' : ''];
  for (let i = absolute ? 1 : 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const next: string[] = [];
    if (!/[*?[]/.test(segment)) {
      for (const b of bases) next.push(join(b, segment));
    } else {
      const re = segmentRegExp(segment);
      if (!re) return undefined;
      for (const b of bases) {
        let names: string[];
        const listed = path.resolve(cwd ?? '/', b || '.');
        onList?.(listed);
        try {
          names = readdirSync(listed);
        } catch {
          continue;
        }
        for (const name of names) {
          if (name.startsWith('.') && !segment.startsWith('.')) continue;
          if (re.test(name)) next.push(join(b, name));
        }
        if (next.length > MAX_EXPANSION) return undefined;
      }
    }
    bases = next;
  }
  // Without a match bash passes the word as written.
  return bases.length > 0 ? bases.sort() : [value];
}

function join(base: string, name: string): string {
  return base === '' ? name : base === '/' ? `/${name}` : `${base}/${name}`;
}

function segmentRegExp(segment: string): RegExp | undefined {
  let re = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close === -1) {
        re += '\\[';
        continue;
      }
      let body = segment.slice(i + 1, close);
      if (body.startsWith('!') || body.startsWith('^')) body = `^${body.slice(1)}`;
      re += `[${body.replace(/\\/g, '\\\\')}]`;
      i = close;
    } else re += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  try {
    return new RegExp(`^${re}$`, 's');
  } catch {
    return undefined;
  }
}
