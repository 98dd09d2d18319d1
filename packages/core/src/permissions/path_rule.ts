import { homedir } from 'node:os';
import { resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { ToolshedError } from '../errors.ts';
import { foldPath } from './_fold_path.ts';
import { isNormalAbsolute } from './_is_normal_absolute.ts';
import { physicalRootOf, pinnedPhysicalRoot } from './real_path_cache.ts';
import { PERMISSION_RULE_INVALID } from './rule_parser.ts';

/** Where a path specifier is anchored (gitignore syntax, as Claude Code reads it). */
export type PathAnchor = 'absolute' | 'home' | 'settings' | 'cwd' | 'anywhere';

/** A path specifier split into its anchor and the pattern after it. */
export interface PathSpecifier {
  anchor: PathAnchor;
  /** The pattern after the anchor, without leading or trailing `/`; `''` names the anchor itself. */
  pattern: string;
}

/** The directories a path specifier's anchors stand for. */
export interface PathRuleBases {
  /** `./x` and `x/y` are relative to it. */
  cwd: string;
  /** `~/x`. @default os.homedir() */
  homeDir?: string | undefined;
  /** `/x`: the settings root (the directory holding `.toolshed/`), or cwd for rules from options. */
  root?: string | undefined;
  /** A bare name (`.env`, `*.pem`) matches at any depth below each of them, as in a .gitignore. */
  workingDirectories: readonly string[];
  /** Compare paths without regard to case (macOS, Windows). @default false */
  caseInsensitive?: boolean | undefined;
  /**
   * Match the root by the physical path it had when first resolved ({@linkcode pinnedPhysicalRoot})
   * only, not also as its links are now: for allow rules, which a link re-pointed later must not
   * widen. Without it (deny and ask rules) the root is matched both ways, so a re-pointed link
   * cannot narrow the rule either.
   * @default false
   */
  pinnedRoots?: boolean | undefined;
}

/**
 * Splits a Read/Edit rule's specifier into anchor and pattern, gitignore-style:
 * `//abs/path` is absolute, `~/x` is below the home directory, `/x` is relative to the settings
 * file's root, `./x` and `x/y` are relative to cwd, and a bare name with no `/` (`.env`,
 * `*.pem`) matches at any depth below every working directory.
 *
 * @param content The specifier inside `Read(...)` or `Edit(...)`.
 * @returns The anchor and the pattern after it.
 * @throws {ToolshedError} `permission_rule_invalid` for a negated pattern (`!x`), which a
 *   permission rule cannot express (write a deny rule instead); for white space at either end
 *   (`./.env ` would match only `.env `); and for a backslash used as a path separator
 *   (`.\secrets\**`), which is never one in a rule.
 *
 * @example
 * ```ts
 * import { parsePathSpecifier } from '@toolshed/core/internal';
 *
 * parsePathSpecifier('//etc/**');  // { anchor: 'absolute', pattern: 'etc/**' }
 * parsePathSpecifier('./src/*.ts'); // { anchor: 'cwd', pattern: 'src/*.ts' }
 * parsePathSpecifier('.env');       // { anchor: 'anywhere', pattern: '.env' }
 * ```
 */
export function parsePathSpecifier(content: string): PathSpecifier {
  if (content.startsWith('!')) {
    throw new ToolshedError(
      PERMISSION_RULE_INVALID,
      `Path pattern "${content}" is negated: permission rules have no "!" patterns; put "${content.slice(1)}" in another list (deny, ask or allow) instead`,
    );
  }
  if (content !== content.trim()) {
    throw new ToolshedError(
      PERMISSION_RULE_INVALID,
      `Path pattern ${JSON.stringify(content)} starts or ends with white space, so it would only match a name that does too: did you mean "${content.trim()}"?`,
    );
  }
  // A backslash escapes a glob character (a literal star); before anything else it is a
  // Windows separator, which would make the rule match nothing and a deny rule hold nothing.
  if (/\\(?![*?[\]{}()!+@\\])/.test(content)) {
    throw new ToolshedError(
      PERMISSION_RULE_INVALID,
      `Path pattern ${JSON.stringify(content)} uses "\\" as a path separator: permission rules use "/" on every system; did you mean "${content.replaceAll('\\', '/')}"?`,
    );
  }
  const clean = (text: string) => text.replace(/\/{2,}/g, '/').replace(/^\/+|\/+$/g, '');
  if (content.startsWith('//')) return { anchor: 'absolute', pattern: clean(content.slice(2)) };
  if (content === '~' || content.startsWith('~/')) return { anchor: 'home', pattern: clean(content.slice(1)) };
  if (content.startsWith('/')) return { anchor: 'settings', pattern: clean(content.slice(1)) };
  if (content === '.' || content.startsWith('./')) return { anchor: 'cwd', pattern: clean(content.slice(1)) };
  const pattern = clean(content);
  return { anchor: pattern.includes('/') ? 'cwd' : 'anywhere', pattern };
}

/**
 * The directories a path specifier is rooted at, lexical and through symlinks (so a rule about
 * `./secrets` still covers it when `secrets` is a link), plus the glob below them.
 *
 * @param content The specifier.
 * @param bases What the anchors stand for.
 * @returns `dirs` to match below and the `glob` ('' when the specifier names the directory or
 *   file itself); `anywhere` when the glob matches one path segment at any depth.
 * @throws {ToolshedError} As {@linkcode parsePathSpecifier}.
 *
 * @example
 * ```ts
 * import { pathRuleRoots } from '@toolshed/core/internal';
 *
 * pathRuleRoots('./src/**', { cwd: '/p', workingDirectories: ['/p'] });
 * // { dirs: ['/p/src'], glob: '**', anywhere: false }
 * ```
 */
export function pathRuleRoots(
  content: string,
  bases: PathRuleBases,
): { dirs: string[]; glob: string; anywhere: boolean } {
  const parsed = parsedPathRule(content, bases.caseInsensitive === true);
  return { dirs: rootsOf(parsed, bases), glob: parsed.glob, anywhere: parsed.anywhere };
}

/**
 * Whether a Read/Edit rule's path specifier covers an absolute path. A pattern covers a path
 * when it matches the path or one of its parent directories (as a .gitignore entry for a
 * directory covers everything in it): `Read(./secrets)` covers `./secrets/key`. `*` matches
 * within one path segment, `**` across segments; dotfiles are matched like other names.
 *
 * The rule's root is resolved through symlinks as {@linkcode compilePathRule} does; to test many
 * paths against one rule, compile it once with it.
 *
 * @param content The rule's specifier, for example `./src/**` or `//etc/passwd`.
 * @param path An absolute path, already resolved (see {@linkcode resolveRealPath}).
 * @param options What the anchors stand for (the {@linkcode PathRuleBases}).
 * @returns True when the rule covers the path.
 * @throws {ToolshedError} As {@linkcode parsePathSpecifier}.
 *
 * @example
 * ```ts
 * import { matchPathRule } from '@toolshed/core/internal';
 *
 * const bases = { cwd: '/p', workingDirectories: ['/p'] };
 * matchPathRule('./src/**', '/p/src/a/b.ts', bases); // true
 * matchPathRule('.env', '/p/sub/.env', bases);      // true: a bare name matches at any depth
 * matchPathRule('//etc/**', '/etc2/x', bases);      // false
 * ```
 */
export function matchPathRule(content: string, path: string, options: PathRuleBases): boolean {
  return compilePathRule(content, options).covers(path);
}

/** A path rule made ready to test many paths: see {@linkcode compilePathRule}. */
export interface CompiledPathRule {
  /**
   * Whether the rule covers the path, itself or through one of its parent directories: the
   * verdict of {@linkcode matchPathRule}.
   * @throws {Error} When picomatch cannot compile the glob (the guard takes that as no match).
   */
  covers(path: string): boolean;
  /**
   * Whether the rule covers the path without help from its parent directory: the pattern
   * matches the whole path (or, for a bare name, its last segment), or the path is one of the
   * rule's roots. `covers(p)` is `coversWhole(p) || covers(dirname(p))`, which lets a caller
   * that tests the files of one folder judge the folder once.
   * @throws {Error} As `covers`.
   */
  coversWhole(path: string): boolean;
  /**
   * The folders the rule is rooted at, folded and normalized as the paths it is asked about are
   * (see {@linkcode pathRuleTarget}): it covers a path only when one of them is the path or one
   * of its parent folders. An index of rules by root ({@linkcode findPathRule}) relies on it.
   */
  readonly roots: readonly string[];
}

/**
 * A path as a compiled rule compares it against its roots: folded for a case-insensitive
 * session, and made absolute and normal. A rule's `covers(path)` can only be true when one of
 * its `roots` is this value or one of its parent folders.
 *
 * @param path The path asked about.
 * @param caseInsensitive Whether the session folds case.
 * @returns The path to compare.
 *
 * @example
 * ```ts
 * import { pathRuleTarget } from '@toolshed/core/internal';
 *
 * pathRuleTarget('/p/src/../.env', false); // '/p/.env'
 * ```
 */
export function pathRuleTarget(path: string, caseInsensitive: boolean): string {
  // A filter asks every rule about the same path in turn: prepare it once.
  if (path === lastTarget.path && caseInsensitive === lastTarget.nocase) return lastTarget.target;
  const folded = foldPath(path, caseInsensitive);
  const target = isNormalAbsolute(folded) ? folded : resolve(folded);
  // A relative path resolves against process.cwd(), which may change: not kept.
  if (path.startsWith('/')) lastTarget = { path, nocase: caseInsensitive, target };
  return target;
}

/**
 * Compiles a path rule for testing many paths: the specifier is parsed and its glob compiled
 * once per specifier (kept in a small cache, since neither depends on the file system), and the
 * rule's roots are resolved through symlinks by {@linkcode physicalRootOf}: reused while no
 * folder on their way has changed, so a symlink made after a rule was compiled (`ln -s ~/.ssh
 * secrets`) is still followed the next time the rule is checked.
 *
 * Paths are compared as strings below the roots, so give absolute, normalized paths (a path
 * with `.`, `..` or `//` in it is normalized first, at some cost).
 *
 * @param content The rule's specifier.
 * @param bases What the anchors stand for (`workingDirectories` is read only for a bare name).
 * @returns The compiled rule.
 * @throws {ToolshedError} As {@linkcode parsePathSpecifier}.
 *
 * @example
 * ```ts
 * import { compilePathRule } from '@toolshed/core/internal';
 *
 * declare const files: string[];
 * const rule = compilePathRule('./secret/**', { cwd: '/p', workingDirectories: ['/p'] });
 * files.filter((f) => !rule.covers(f)); // one resolution of /p/secret, one compiled glob
 * ```
 */
export function compilePathRule(content: string, bases: PathRuleBases): CompiledPathRule {
  const nocase = bases.caseInsensitive === true;
  const parsed = parsedPathRule(content, nocase);
  const dirs = rootsOf(parsed, bases).map((dir) => foldPath(dir, nocase));
  const prefixes = dirs.map((dir) => (dir.endsWith(sep) ? dir : `${dir}${sep}`));
  const { glob, anywhere, allStars } = parsed;
  const targetOf = (path: string): string => pathRuleTarget(path, nocase);
  /**
   * The rule's verdict on a path: below each root, the path itself and (unless `whole`) each of
   * its parents. One loop for both methods, so that they agree on roots, anchors and folding.
   */
  const match = (path: string, whole: boolean): boolean => {
    const target = targetOf(path);
    for (let i = 0; i < dirs.length; i++) {
      let rel: string;
      if (target === dirs[i]) rel = '';
      else if (target.startsWith(prefixes[i]!)) rel = target.slice(prefixes[i]!.length);
      else continue;
      if (glob === '') return true;
      if (rel === '') {
        if (allStars) return true;
        continue;
      }
      const isMatch = parsed.matcher();
      if (whole) {
        // The path itself: a bare name's last segment, or all of the path below the root.
        if (isMatch(anywhere ? rel.slice(rel.lastIndexOf(sep) + 1) : sep === '/' ? rel : rel.split(sep).join('/')))
          return true;
        continue;
      }
      // The path and each parent below the root, as a .gitignore entry for a folder covers what is in it.
      const segments = rel.split(sep);
      let prefix = '';
      for (let n = 0; n < segments.length; n++) {
        const segment = segments[n]!;
        prefix = n === 0 ? segment : `${prefix}/${segment}`;
        if (isMatch(anywhere ? segment : prefix)) return true;
      }
    }
    return false;
  };
  return { covers: (path) => match(path, false), coversWhole: (path) => match(path, true), roots: dirs };
}

/** The last path a compiled rule prepared, folded and normalized: shared by every rule. */
let lastTarget = { path: '', nocase: false, target: '' };

/** What a specifier compiles to, before the file system is asked anything. */
interface ParsedPathRule {
  anchor: PathAnchor;
  /** The leading part without glob characters, relative to the anchor. */
  literal: string;
  glob: string;
  anywhere: boolean;
  /** The glob is only `**` (`**`, `** /**`): it also covers its root itself. */
  allStars: boolean;
  /** The glob's matcher, compiled on first use (a rule whose paths never reach it never needs it). */
  matcher: () => (test: string) => boolean;
}

/** Parsed specifiers by case folding and content; cleared when full, as a session has few rules. */
const parsedCache = new Map<string, ParsedPathRule>();
const PARSED_CACHE_LIMIT = 1000;

function parsedPathRule(content: string, nocase: boolean): ParsedPathRule {
  const key = `${nocase ? 'i' : 's'}${content}`;
  const cached = parsedCache.get(key);
  if (cached !== undefined) return cached;
  const spec = parsePathSpecifier(content);
  let literal: string;
  let glob: string;
  if (spec.anchor === 'anywhere') {
    literal = '';
    glob = spec.pattern;
  } else {
    const scan = picomatch.scan(spec.pattern);
    literal = scan.isGlob ? scan.base : spec.pattern;
    glob = scan.isGlob ? scan.glob : '';
  }
  let isMatch: ((test: string) => boolean) | undefined;
  const parsed: ParsedPathRule = {
    anchor: spec.anchor,
    literal,
    glob,
    anywhere: spec.anchor === 'anywhere',
    allStars: /^(\*\*\/?)+$/.test(glob),
    matcher: () => (isMatch ??= compileGlob(nocase ? glob.normalize('NFC') : glob, nocase)),
  };
  if (parsedCache.size >= PARSED_CACHE_LIMIT) parsedCache.clear();
  parsedCache.set(key, parsed);
  return parsed;
}

/**
 * The rule's root directories: lexical and, where they differ, through symlinks: an allow rule's
 * (`pinnedRoots`) as first resolved only; a deny or ask rule's both as first resolved and as its
 * links lead now, so that a link re-pointed later neither widens what is allowed nor takes a deny
 * off the target it had (which a working directory or an allow rule still keeps).
 */
function rootsOf(parsed: ParsedPathRule, bases: PathRuleBases): string[] {
  if (parsed.anywhere) return [...bases.workingDirectories];
  const home = bases.homeDir ?? homedir();
  const anchorDir =
    parsed.anchor === 'absolute'
      ? '/'
      : parsed.anchor === 'home'
        ? home
        : parsed.anchor === 'settings'
          ? (bases.root ?? bases.cwd)
          : bases.cwd;
  const lexical = resolve(anchorDir, parsed.literal);
  // A rule whose directory loops through symlinks keeps its lexical root only (while it loops).
  const roots = [lexical];
  const add = (dir: string) => {
    if (!roots.includes(dir)) roots.push(dir);
  };
  add(pinnedPhysicalRoot(lexical, home));
  if (!bases.pinnedRoots) add(physicalRootOf(lexical, home));
  return roots;
}

/**
 * What `picomatch(glob, { dot: true, nocase })` returns, without the result object its matcher
 * builds on every call (a third of a search filter's time): picomatch's own test is "not empty,
 * and the glob itself or a match of its regular expression".
 */
function compileGlob(glob: string, nocase: boolean): (test: string) => boolean {
  const re = picomatch.makeRe(glob, { dot: true, nocase });
  return (test) => test !== '' && (test === glob || re.test(test));
}
