import type { ShellWord } from './bash_parser.ts';
import { mayBeOption } from './_option_words.ts';

/** Declares a path; see `commandResources`. */
type Add = (word: ShellWord, access: 'read' | 'write') => void;
/** Declares what cannot be known. */
type AddUnknown = (what: string, access: 'read' | 'write') => void;

/** Options of {@linkcode declareUnpackOrFetch}. */
export interface UnpackOrFetchOptions {
  /** Declares a path the program writes. */
  add: Add;
  /** Declares what cannot be known. */
  addUnknown: AddUnknown;
}

/** How an option uses the word after it: nothing, a value, a file written, or the output (`-o`, `-O`). */
type Use = 'flag' | 'value' | 'write' | 'output';

/** A program's options the guard knows: any other may write a file. */
interface Options {
  short: Readonly<Record<string, Use>>;
  long: Readonly<Record<string, Use>>;
}

const use = (kind: Use, ...names: string[]) => Object.fromEntries(names.map((n) => [n, kind]));

/**
 * curl's options that write no file (flags, and values that are not files written or are files
 * read, which stay unknown reads: curl has no table of its reads), the files it writes itself
 * (`-D`, `-c`, `--trace`…) and its output (`-o`). `-O`, `-J`, `--output-dir`, `-K` and any option
 * not listed here are not: what they write is not known.
 */
const CURL: Options = {
  short: {
    ...use('flag', 's', 'S', 'L', 'f', 'k', 'v', 'i', 'I', 'G', 'g', 'N', '#', '4', '6', 'q', 'n', 'Z', 'l', 'j', '0'),
    ...use('value', 'H', 'X', 'd', 'u', 'A', 'e', 'm', 'w', 'x', 'r', 'b', 'F', 'T', 'C', 'E', 'U', 'z', 'y', 'Y'),
    ...use('write', 'D', 'c'),
    o: 'output',
  },
  long: {
    ...use(
      'flag',
      '--silent',
      '--show-error',
      '--location',
      '--location-trusted',
      '--fail',
      '--fail-with-body',
      '--insecure',
      '--verbose',
      '--include',
      '--head',
      '--get',
      '--globoff',
      '--no-buffer',
      '--progress-bar',
      '--no-progress-meter',
      '--compressed',
      '--http1.0',
      '--http1.1',
      '--http2',
      '--http3',
      '--ipv4',
      '--ipv6',
      '--netrc',
      '--parallel',
      '--junk-session-cookies',
      '--raw',
      '--ssl',
      '--ssl-reqd',
      '--tlsv1.2',
      '--tlsv1.3',
      '--list-only',
      // Makes the folders of a file `-o` names, which is declared.
      '--create-dirs',
    ),
    ...use(
      'value',
      '--header',
      '--request',
      '--data',
      '--data-raw',
      '--data-binary',
      '--data-ascii',
      '--data-urlencode',
      '--json',
      '--user',
      '--user-agent',
      '--referer',
      '--max-time',
      '--connect-timeout',
      '--retry',
      '--retry-delay',
      '--retry-max-time',
      '--write-out',
      '--url',
      '--proxy',
      '--range',
      '--cookie',
      '--form',
      '--form-string',
      '--upload-file',
      '--max-redirs',
      '--continue-at',
      '--limit-rate',
      '--resolve',
      '--connect-to',
      '--cert',
      '--cacert',
      '--key',
      '--proxy-user',
      '--oauth2-bearer',
      '--interface',
      '--time-cond',
      '--max-filesize',
      '--speed-limit',
      '--speed-time',
    ),
    ...use(
      'write',
      '--dump-header',
      '--cookie-jar',
      '--trace',
      '--trace-ascii',
      '--stderr',
      '--libcurl',
      '--etag-save',
      '--hsts',
      '--alt-svc',
    ),
    '--output': 'output',
  },
};

/** wget's options that write no file, and its output (`-O`). Any other (`-P`, `-r`, `-o`…) may write one. */
const WGET: Options = {
  short: { ...use('flag', 'q', 'v', 'S', '4', '6'), ...use('value', 'T', 't', 'U'), O: 'output' },
  long: {
    ...use('flag', '--quiet', '--verbose', '--no-verbose', '--server-response', '--spider', '--no-check-certificate'),
    ...use(
      'value',
      '--timeout',
      '--tries',
      '--user-agent',
      '--header',
      '--max-redirect',
      '--method',
      '--body-data',
      '--post-data',
      '--user',
      '--password',
    ),
    '--output-document': 'output',
  },
};

/** What a scan of a program's words found: its outputs, the first option that is not known, and the words left. */
interface Scan {
  outputs: ShellWord[];
  writes: ShellWord[];
  unknown: string | undefined;
  positionals: ShellWord[];
}

/**
 * Reads a program's words by its table: a word not known before it runs that may be an option,
 * and an option the table does not know, are `unknown` (either may write a file).
 */
function scan(args: readonly ShellWord[], table: Options): Scan {
  const out: Scan = { outputs: [], writes: [], unknown: undefined, positionals: [] };
  const taken = (kind: Use, word: ShellWord | undefined, option: string) => {
    if (word === undefined) return;
    // curl's `-o '#1.txt'` is named from the URL's globs.
    if (kind === 'output' && word.value.includes('#')) out.unknown ??= `${option} ${word.text}`;
    // curl 8.3+: `-w '%output{FILE}…'` writes what follows to FILE; `-w @F` reads the format from F.
    else if ((option === '-w' || option === '--write-out') && (!word.literal || /%output|^@/.test(word.value)))
      out.unknown ??= `${option} ${word.text}`;
    else if (kind === 'output') out.outputs.push(word);
    else if (kind === 'write') out.writes.push(word);
  };
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const v = arg.value;
    if (ended || !arg.literal || !v.startsWith('-') || v === '-') {
      if (!ended && !arg.literal && mayBeOption(arg)) out.unknown ??= arg.text;
      out.positionals.push(arg);
      continue;
    }
    if (v === '--') {
      ended = true;
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq === -1 ? v : v.slice(0, eq);
      const kind = table.long[name];
      if (kind === undefined) out.unknown ??= name;
      else if (kind !== 'flag') {
        const value = eq === -1 ? args[++i] : { ...arg, text: v.slice(eq + 1), value: v.slice(eq + 1) };
        taken(kind, value, name);
      }
      continue;
    }
    for (let c = 1; c < v.length; c++) {
      const letter = v[c]!;
      const kind = table.short[letter];
      if (kind === undefined) {
        out.unknown ??= `-${letter}`;
        break;
      }
      if (kind === 'flag') continue;
      const rest = v.slice(c + 1);
      taken(kind, rest !== '' ? { ...arg, text: rest, value: rest } : args[++i], `-${letter}`);
      break;
    }
  }
  return out;
}

/** Declares the files a scan found written; `-` is standard output. */
function declareScanned(program: string, found: Scan, { add, addUnknown }: UnpackOrFetchOptions): void {
  for (const word of [...found.outputs, ...found.writes]) if (word.value !== '-' || !word.literal) add(word, 'write');
  if (found.unknown !== undefined)
    addUnknown(
      `the files \`${program} ${found.unknown}\` may write (an option whose files the guard cannot work out)`,
      'write',
    );
}

/**
 * Declares what a program that unpacks, patches, splits, copies or downloads writes, where its
 * words do not say it: `tar` (but listing, or extracting to standard output), `unzip` (but
 * listing, testing, or printing), `patch`, `split` and `csplit` (a prefix with suffixes added),
 * `rsync`, and the files `curl -O`, `wget` and their options not known write are unknown writes,
 * since an archive, a patch, a suffix, a URL or a server names them (`.git/hooks/…`,
 * `.husky/pre-commit`, `../…`, a hard link to any file). `curl -o FILE`,
 * `wget -O FILE` and curl's other files (`-D`, `-c`, `--trace`) are declared writes. What these
 * programs read stays as the caller declares it (unknown reads: they have no table).
 *
 * @param name The program (`tar`).
 * @param args Its words.
 * @param options How to declare paths and what cannot be known.
 * @returns True when the program is one of these.
 *
 * @example
 * ```ts
 * import { declareUnpackOrFetch } from './_unpack_and_fetch.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * const unknown: string[] = [];
 * declareUnpackOrFetch('tar', [word('-xf'), word('a.tar')], { add: () => {}, addUnknown: (w) => void unknown.push(w) });
 * unknown; // ['the files `tar` extracts or writes (…)']
 * ```
 */
export function declareUnpackOrFetch(name: string, args: readonly ShellWord[], options: UnpackOrFetchOptions): boolean {
  const { addUnknown } = options;
  switch (name) {
    case 'tar':
      if (!tarOnlyReads(args))
        addUnknown(
          'the files `tar` extracts or writes (an archive may hold any path: .git/…, .husky/…, ../…, links to any file)',
          'write',
        );
      return true;
    case 'unzip':
      if (!unzipOnlyReads(args))
        addUnknown('the files `unzip` extracts (an archive may hold any path: .git/…, .husky/…, ../…)', 'write');
      return true;
    case 'patch':
      addUnknown('the files `patch` changes or makes (the patch names them)', 'write');
      return true;
    case 'split':
    case 'csplit':
      // `split -n 20 -a 1 a.txt .git/hooks/pre-commi` makes …/pre-commit, its 20th piece.
      addUnknown(
        `the files \`${name}\` writes (a prefix followed by suffixes the guard does not work out: \`.git/hooks/pre-commi\` and \`t\` make a hook), and what its --filter runs`,
        'write',
      );
      return true;
    case 'rsync':
      addUnknown('the files `rsync` writes (what the source holds, at any depth, and what its options name)', 'write');
      return true;
    case 'curl': {
      const found = scan(args, CURL);
      declareScanned('curl', found, options);
      return true;
    }
    case 'wget': {
      const found = scan(args, WGET);
      declareScanned('wget', found, options);
      const spider = args.some((a) => a.value === '--spider');
      // Without -O (or --spider) wget saves each URL under a name the server's answer decides.
      if (found.outputs.length === 0 && !spider)
        addUnknown('the file `wget` saves each URL as (named from the URL or the server’s answer)', 'write');
      return true;
    }
    default:
      return false;
  }
}

/** tar's letters and long options of listing (`t`), comparing (`d`) or extracting to standard output (`xO`). */
const TAR_READ_LETTERS = new Set(['t', 'd', 'x', 'O', 'v', 'f', 'z', 'j', 'J', 'Z']);
const TAR_READ_LONG = new Set([
  '--list',
  '--diff',
  '--compare',
  '--extract',
  '--get',
  '--to-stdout',
  '--verbose',
  '--file',
  '--gzip',
  '--gunzip',
  '--bzip2',
  '--xz',
  '--zstd',
  '--lzma',
  '--lzip',
  '--wildcards',
  '--no-wildcards',
  '--anchored',
  '--utc',
  '--full-time',
  '--numeric-owner',
]);

/**
 * Whether `tar` only reads: it lists, compares or extracts to standard output, with options of
 * {@linkcode TAR_READ_LETTERS} / {@linkcode TAR_READ_LONG} only (`--index-file`, `-g`, `-C`… are
 * not: they write or move where it writes). The first word may be a bundle without a dash (`tvf`).
 */
function tarOnlyReads(args: readonly ShellWord[]): boolean {
  const letters: string[] = [];
  for (const [i, arg] of args.entries()) {
    if (!arg.literal) return false;
    const v = arg.value;
    if (v.startsWith('--')) {
      if (!TAR_READ_LONG.has(v.replace(/=.*/, ''))) return false;
      letters.push(...longLetter(v));
    } else if (v.startsWith('-') || (i === 0 && /^[a-zA-Z]+$/.test(v))) {
      const bundle = v.replace(/^-/, '');
      // `-f FILE` takes the rest of a dashed bundle (`-fa.tar`) as its value.
      const f = v.startsWith('-') ? bundle.indexOf('f') : -1;
      const flags = f === -1 ? bundle : bundle.slice(0, f + 1);
      for (const l of flags) if (!TAR_READ_LETTERS.has(l)) return false;
      letters.push(...flags);
    }
  }
  const listing = letters.includes('t') || letters.includes('d');
  return listing || (letters.includes('x') && letters.includes('O'));
}

function longLetter(option: string): string[] {
  const name = option.replace(/=.*/, '');
  if (name === '--list') return ['t'];
  if (name === '--diff' || name === '--compare') return ['d'];
  if (name === '--extract' || name === '--get') return ['x'];
  if (name === '--to-stdout') return ['O'];
  return [];
}

/** Whether `unzip` only reads: it lists, tests or prints (`-l`, `-v`, `-t`, `-p`, `-c`, `-Z`, `-z`), with no other option. */
function unzipOnlyReads(args: readonly ShellWord[]): boolean {
  let mode = false;
  for (const arg of args) {
    if (!arg.literal) return false;
    if (arg.value === '-x') break; // the members left out follow
    if (!arg.value.startsWith('-')) continue;
    for (const l of arg.value.slice(1)) {
      if ('lvtpcZz'.includes(l)) mode = true;
      else if (l !== 'q') return false;
    }
  }
  return mode;
}
