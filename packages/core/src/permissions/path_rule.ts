import { homedir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { ToolshedError } from '../errors.ts';
import { foldPath } from './_fold_path.ts';
import { resolveRealPath } from './resolve_real_path.ts';
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
 * pathRuleRoots('./src/**', { cwd: '/p', workingDirectories: ['/p'] });
 * // { dirs: ['/p/src'], glob: '**', anywhere: false }
 * ```
 */
export function pathRuleRoots(content: string, bases: PathRuleBases): { dirs: string[]; glob: string; anywhere: boolean } {
  const spec = parsePathSpecifier(content);
  const home = bases.homeDir ?? homedir();
  if (spec.anchor === 'anywhere') {
    return { dirs: [...bases.workingDirectories], glob: spec.pattern, anywhere: true };
  }
  const anchorDir = spec.anchor === 'absolute' ? '/' : spec.anchor === 'home' ? home : spec.anchor === 'settings' ? bases.root ?? bases.cwd : bases.cwd;
  const scan = picomatch.scan(spec.pattern);
  const literal = scan.isGlob ? scan.base : spec.pattern;
  const glob = scan.isGlob ? scan.glob : '';
  const lexical = resolve(anchorDir, literal);
  const dirs = [lexical];
  try {
    const real = resolveRealPath(lexical, { cwd: bases.cwd, homeDir: home });
    if (real !== lexical) dirs.push(real);
  } catch {
    // A rule whose directory loops through symlinks keeps its lexical root only.
  }
  return { dirs, glob, anywhere: false };
}

/**
 * Whether a Read/Edit rule's path specifier covers an absolute path. A pattern covers a path
 * when it matches the path or one of its parent directories (as a .gitignore entry for a
 * directory covers everything in it): `Read(./secrets)` covers `./secrets/key`. `*` matches
 * within one path segment, `**` across segments; dotfiles are matched like other names.
 *
 * @param content The rule's specifier, for example `./src/**` or `//etc/passwd`.
 * @param path An absolute path, already resolved (see {@linkcode resolveRealPath}).
 * @param bases What the anchors stand for.
 * @returns True when the rule covers the path.
 * @throws {ToolshedError} As {@linkcode parsePathSpecifier}.
 *
 * @example
 * ```ts
 * const bases = { cwd: '/p', workingDirectories: ['/p'] };
 * matchPathRule('./src/**', '/p/src/a/b.ts', bases); // true
 * matchPathRule('.env', '/p/sub/.env', bases);      // true: a bare name matches at any depth
 * matchPathRule('//etc/**', '/etc2/x', bases);      // false
 * ```
 */
export function matchPathRule(content: string, path: string, bases: PathRuleBases): boolean {
  const { dirs, glob, anywhere } = pathRuleRoots(content, bases);
  const nocase = bases.caseInsensitive === true;
  const fold = (text: string) => foldPath(text, nocase);
  const target = fold(path);
  let isMatch: ((test: string) => boolean) | undefined;
  for (const dir of dirs) {
    const rel = relative(fold(dir), target);
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) continue;
    if (glob === '') return true;
    const segments = rel === '' ? [] : rel.split(sep);
    if (segments.length === 0) {
      if (/^(\*\*\/?)+$/.test(glob)) return true;
      continue;
    }
    isMatch ??= picomatch(nocase ? glob.normalize('NFC') : glob, { dot: true, nocase });
    for (let k = 1; k <= segments.length; k++) {
      if (isMatch(anywhere ? segments[k - 1]! : segments.slice(0, k).join('/'))) return true;
    }
  }
  return false;
}
