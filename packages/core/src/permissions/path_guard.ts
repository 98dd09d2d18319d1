import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve, sep } from 'node:path';
import type { ResourceAccess, ToolContext } from '../tool.ts';
import { ToolshedError } from '../errors.ts';
import { foldPath } from './_fold_path.ts';
import { isNormalAbsolute } from './_is_normal_absolute.ts';
import { isPathInside } from './is_path_inside.ts';
import { compileSessionPathRule } from './compiled_rules_cache.ts';
import type { CompiledPathRule } from './path_rule.ts';
import { pathRuleCandidates, type PathRuleIndexBases } from './path_rule_index.ts';
import type { ProtectedPath } from './protected_paths.ts';
import { protectedWriteCheck } from './_protected_writes.ts';
import { physicalRootOf, pinnedPhysicalRoot } from './real_path_cache.ts';
import { resolveRealPath } from './resolve_real_path.ts';
import { countRuleVisit } from './_rule_visits.ts';
import type { PermissionContext, PermissionRule } from './types.ts';

/** The error code of a `resources()` entry the guard cannot check. */
export const RESOURCE_INVALID = 'resource_invalid' as const;

/**
 * Which tools a path rule covers, besides the tool it names: `Read(...)` rules also cover Glob
 * and Grep, `Edit(...)` rules also cover Write, NotebookEdit and MultiEdit (Claude Code's
 * coverage). Reads are checked against `Read` rules, writes against `Edit` rules.
 */
export const PATH_RULE_COVERAGE: Readonly<Record<'Read' | 'Edit', readonly string[]>> = {
  Read: ['Read', 'Glob', 'Grep'],
  Edit: ['Edit', 'Write', 'NotebookEdit', 'MultiEdit'],
};

/** Device files that are harmless to read or write (a shell's `> /dev/null`). */
const HARMLESS_DEVICES = ['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty'];

/** One declared path, resolved for the guard. */
export interface GuardedPath {
  access: 'read' | 'write';
  /** As the tool declared it. */
  declared: string;
  /** Absolute with `..` collapsed, symlinks not followed: what deny and ask rules also see. */
  lexical: string;
  /**
   * Through symlinks: the physical path of the declared path, and of its lexical form when that
   * differs (a tool may open either); every one must pass.
   */
  real: string[];
  /** A character or block device, FIFO or socket (other than `/dev/null` and kin). */
  device: boolean;
  /** `/dev/null`, `/dev/stdout`, `/dev/stderr`, `/dev/tty`: never outside anything that matters. */
  harmless: boolean;
  /** `folder`: some path under it (see `ResourceAccess.kind`); absent for an exact path. */
  kind?: 'folder';
  /** A folder whose repository history is read as well. */
  history?: boolean;
  /** A folder git writes as a work tree: its index's paths below it are under it, its `.git` folders are not (see `ResourceAccess.worktree`). */
  worktree?: boolean;
  /** A folder read as git reads a work tree: only the files its index tracks below it (see `ResourceAccess.tracked`). */
  tracked?: boolean;
  /** A folder whose names and metadata only are read (see `ResourceAccess.names`). */
  names?: boolean;
  /** The folders (physical) whose contents land at this path, as `ResourceAccess.from` says. */
  from?: string[];
}

/**
 * Resolves what a tool declared in `resources(input, ctx)` into the paths the guard checks.
 *
 * @param accesses The tool's declared accesses.
 * @param ctx The call's context (cwd, home directory).
 * @returns One {@linkcode GuardedPath} per access.
 * @throws {ToolshedError} `resource_invalid` for an entry that is not `{ path, access }`;
 *   `path_unresolvable` for circular symlinks. The permission layer denies on either.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { resolveResources } from '@toolshed/core/internal';
 * declare const ctx: ToolContext;
 *
 * const [p] = resolveResources([{ path: 'link/new.txt', access: 'write' }], ctx);
 * p?.real; // ['/elsewhere/new.txt'] when link -> /elsewhere
 * ```
 */
export function resolveResources(
  accesses: readonly ResourceAccess[],
  ctx: Pick<ToolContext, 'cwd' | 'permissions'>,
): GuardedPath[] {
  if (!Array.isArray(accesses)) {
    throw new ToolshedError(
      RESOURCE_INVALID,
      `resources() returned ${typeof accesses}, not a list of { path, access }`,
    );
  }
  if (accesses.length === 0) return [];
  const homeDir = ctx.permissions.homeDir ?? homedir();
  return accesses.map((a) => {
    if (
      !a ||
      typeof a.path !== 'string' ||
      a.path === '' ||
      (a.access !== 'read' && a.access !== 'write') ||
      (a.kind !== undefined && a.kind !== 'path' && a.kind !== 'folder') ||
      (a.from !== undefined && (typeof a.from !== 'string' || a.from === '' || a.from.includes('\0')))
    ) {
      throw new ToolshedError(
        RESOURCE_INVALID,
        `resources() returned ${JSON.stringify(a)}, which is not { path: string, access: "read" | "write", kind?: "path" | "folder", from?: string } (unknown entries are taken out before paths are resolved)`,
      );
    }
    if (a.path.includes('\0'))
      throw new ToolshedError(
        RESOURCE_INVALID,
        `resources() returned a path with a NUL byte: ${JSON.stringify(a.path)}`,
      );
    const lexical =
      a.path === '~' ? homeDir : a.path.startsWith('~/') ? resolve(homeDir, a.path.slice(2)) : resolve(ctx.cwd, a.path);
    const real = [resolveRealPath(a.path, { cwd: ctx.cwd, homeDir })];
    // Through the lexical form too, where `..` made it another path: `link/../x` leaves from
    // where link points, as the kernel goes, while its lexical form is `./x`. With no `..` on
    // the way both resolutions walk the same components, so the second is not made.
    if (mayLeaveLexically(a.path, ctx.cwd, homeDir)) {
      const viaLexical = resolveRealPath(lexical, { cwd: ctx.cwd, homeDir });
      if (!real.includes(viaLexical)) real.push(viaLexical);
    }
    const harmless = HARMLESS_DEVICES.includes(lexical);
    const guarded: GuardedPath = {
      access: a.access,
      declared: a.path,
      lexical,
      real,
      device: !harmless && real.some(isDevice),
      harmless,
    };
    if (a.kind === 'folder') {
      guarded.kind = 'folder';
      if (a.history === true) guarded.history = true;
      if (a.worktree === true) guarded.worktree = true;
      // A history is every file that was ever there: it takes in more than what git tracks now.
      if (a.tracked === true && a.history !== true && a.access === 'read') guarded.tracked = true;
      if (a.names === true && a.history !== true && a.tracked !== true && a.access === 'read') guarded.names = true;
    }
    if (a.from !== undefined) guarded.from = [resolveRealPath(a.from, { cwd: ctx.cwd, homeDir })];
    return guarded;
  });
}

/** A `..` segment. */
const DOT_DOT = /(?:^|\/)\.\.(?:\/|$)/;

/**
 * Whether resolving a declared path as written may end elsewhere than resolving its lexical
 * form: only a `..` segment on its way (in the path, or in what it is relative to: cwd, or the
 * home directory for `~/`) makes them differ, `.` and repeated separators being skipped alike.
 */
function mayLeaveLexically(path: string, cwd: string, homeDir: string): boolean {
  if (path.includes('..') && DOT_DOT.test(path)) return true;
  if (sep !== '/') return true;
  const base = path === '~' || path.startsWith('~/') ? homeDir : path.startsWith('/') ? '/' : cwd;
  // A relative base is taken from process.cwd() by one and not the other: both are made.
  return !base.startsWith('/') || (base.includes('..') && DOT_DOT.test(base));
}

/**
 * The session's working directories, resolved through symlinks (so that a project reached
 * through a link, or macOS's `/tmp` → `/private/tmp`, still contains its own files). Resolved
 * through the root cache ({@linkcode physicalRootOf}), as rule roots are: a directory is
 * resolved again when a folder on its way changed, which is looked at once per turn of the event
 * loop and at the start of every permission decision, so a symlink swapped on the way is followed
 * at the next check, and a check with nothing changed costs no lookup of its own.
 *
 * @param permissions The permission context.
 * @param cwd What relative directories resolve against.
 * @returns Absolute physical directories, without duplicates.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { realWorkingDirectories } from '@toolshed/core/internal';
 * declare const ctx: ToolContext;
 *
 * realWorkingDirectories(ctx.permissions, ctx.cwd); // ['/private/tmp/proj']
 * ```
 */
export function realWorkingDirectories(
  permissions: PermissionContext,
  cwd: string,
  options: RealWorkingDirectoriesOptions = {},
): string[] {
  const homeDir = permissions.homeDir ?? homedir();
  const out: string[] = [];
  const add = (real: string) => {
    if (!out.includes(real)) out.push(real);
  };
  for (const dir of permissions.workingDirectories) {
    // A directory as createPermissionContext makes them (absolute, normal) is pinned: where its
    // symlinks loop, its lexical path stands (as before). Any other form is resolved each time.
    if (!isNormalAbsolute(dir)) {
      add(uncachedRealDirectory(dir, cwd, homeDir));
      continue;
    }
    add(pinnedPhysicalRoot(dir, homeDir));
    if (options.asLinkedNow) add(physicalRootOf(dir, homeDir));
  }
  return out;
}

/** Options of {@linkcode realWorkingDirectories}. */
export interface RealWorkingDirectoriesOptions {
  /**
   * Also give each directory as its links resolve now, where that differs from the pinned path:
   * for deny and ask rules with a bare name (`.env`), which a link re-pointed later must not
   * narrow (while allow rules and the "inside a working directory" checks must not be widened).
   * @default false
   */
  asLinkedNow?: boolean;
}

function uncachedRealDirectory(dir: string, cwd: string, homeDir: string): string {
  try {
    return resolveRealPath(dir, { cwd, homeDir });
  } catch {
    return resolve(cwd, dir);
  }
}

/**
 * Whether a path rule applies to one access of one tool: a `Read(...)` rule to every read, an
 * `Edit(...)` rule to every write (whatever the tool, a shell redirection included), and a rule
 * naming a covered file tool itself (`Write(...)`, `Grep(...)`) to that tool's accesses.
 *
 * @param rule The rule (its tool name and specifier).
 * @param options The tool called and the kind of access.
 * @returns True when the rule's specifier should be matched against the path.
 *
 * @example
 * ```ts
 * import { pathRuleApplies } from '@toolshed/core/internal';
 *
 * pathRuleApplies({ toolName: 'Edit', ruleContent: './src/**' }, { toolName: 'Bash', access: 'write' }); // true
 * pathRuleApplies({ toolName: 'Edit', ruleContent: './src/**' }, { toolName: 'Bash', access: 'read' });  // false
 * ```
 */
export function pathRuleApplies(
  rule: Pick<PermissionRule, 'toolName' | 'ruleContent'>,
  options: PathRuleAppliesOptions,
): boolean {
  return appliesToAccess(rule, options.toolName, options.access);
}

/** Options of {@linkcode pathRuleApplies}. */
export interface PathRuleAppliesOptions {
  /** The tool called. */
  toolName: string;
  /** The kind of access. */
  access: 'read' | 'write';
}

/** {@linkcode pathRuleApplies} with positional arguments, for the loops over rules and paths (no object per test). */
function appliesToAccess(
  rule: Pick<PermissionRule, 'toolName' | 'ruleContent'>,
  toolName: string,
  access: 'read' | 'write',
): boolean {
  if (rule.ruleContent === undefined) return false;
  const family = access === 'read' ? 'Read' : 'Edit';
  if (rule.toolName === family) return true;
  return rule.toolName === toolName && PATH_RULE_COVERAGE[family].includes(toolName);
}

/** What every guard check of one call takes: the tool called and the call's context. */
export interface PathCheckOptions {
  /** The tool called. */
  toolName: string;
  /** The call's context. */
  ctx: Pick<ToolContext, 'cwd' | 'permissions'>;
}

/** Options of {@linkcode findPathRule} and {@linkcode ruleCoversPath}. */
export interface FindPathRuleOptions extends PathCheckOptions {
  /**
   * Match the physical paths only. Allow rules do (a link inside an allowed directory must not
   * open what it points to); deny and ask rules also match the path as written.
   * @default false
   */
  realOnly?: boolean;
  /**
   * Counts the work: `count` grows by one for each rule matched against a path. Rules are looked
   * up by tool and by root ({@linkcode pathRuleCandidates}), so rules about other tools or other
   * folders add nothing to it.
   */
  steps?: { count: number };
}

/**
 * The first rule of a list that covers one of the guarded paths (for reads the `Read` rules,
 * for writes the `Edit` rules, with the coverage of {@linkcode PATH_RULE_COVERAGE}).
 *
 * @param rules A rule list (deny, ask or allow).
 * @param paths The guarded paths.
 * @param options The tool called, the call's context, and `realOnly` for allow rules.
 * @returns The rule and the path it covers, or undefined.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { findPathRule, resolveResources } from '@toolshed/core/internal';
 * declare const ctx: ToolContext;
 *
 * findPathRule(ctx.permissions.rules.deny, resolveResources([{ path: '.env', access: 'read' }], ctx), { toolName: 'Bash', ctx });
 * ```
 */
export function findPathRule(
  rules: readonly PermissionRule[],
  paths: readonly GuardedPath[],
  options: FindPathRuleOptions,
): { rule: PermissionRule; path: GuardedPath } | undefined {
  if (rules.length === 0 || paths.length === 0) return undefined;
  const { toolName, ctx } = options;
  const { compile, bases } = pathRuleChecker(ctx);
  let candidates: number[] = [];
  for (const access of ['read', 'write'] as const) {
    const forms: string[] = [];
    for (const path of paths) if (path.access === access) forms.push(path.lexical, ...path.real);
    if (forms.length > 0) candidates.push(...pathRuleCandidates(rules, forms, { toolName, access, bases }));
  }
  if (candidates.length > 1) candidates = [...new Set(candidates)].sort((a, b) => a - b);
  for (const i of candidates) {
    const rule = rules[i]!;
    for (const path of paths) {
      countRuleVisit();
      if (options.steps) options.steps.count++;
      if (coversGuardedPath(compile, rule, toolName, path, options.realOnly === true)) return { rule, path };
    }
  }
  return undefined;
}

/**
 * Whether one rule covers one guarded path: every candidate form of the path is tried (deny
 * and ask), or only the physical ones (allow: `realOnly`).
 *
 * @param rule The rule.
 * @param path The guarded path.
 * @param options The tool called, the call's context, and `realOnly` for allow rules.
 * @returns True when the rule covers the path.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { parseRule, resolveResources, ruleCoversPath } from '@toolshed/core/internal';
 * declare const ctx: ToolContext;
 * const [path] = resolveResources([{ path: 'src/a.ts', access: 'write' }], ctx);
 *
 * ruleCoversPath(parseRule('Edit(./src/**)', { behavior: 'allow', source: 'options' }), path!, { toolName: 'Write', ctx, realOnly: true });
 * ```
 */
export function ruleCoversPath(rule: PermissionRule, path: GuardedPath, options: FindPathRuleOptions): boolean {
  return coversGuardedPath(pathRuleCompiler(options.ctx), rule, options.toolName, path, options.realOnly === true);
}

// Positional on purpose: run once per rule and path of every check, with no object per call.
function coversGuardedPath(
  compile: PathRuleCompiler,
  rule: PermissionRule,
  toolName: string,
  path: GuardedPath,
  realOnly: boolean,
): boolean {
  if (!appliesToAccess(rule, toolName, path.access)) return false;
  const compiled = compile(rule);
  if (compiled === undefined) return false;
  // Allow needs every physical form to match: a tool may open either.
  if (realOnly) return path.real.every((p) => safeCovers(compiled, p));
  return safeCovers(compiled, path.lexical) || path.real.some((p) => safeCovers(compiled, p));
}

/**
 * The first guarded write that is protected (see {@linkcode protectedPath}) and that no allow
 * rule naming the protected file or directory unprotects.
 *
 * @param paths The guarded paths.
 * @param options The tool called and the call's context.
 * @returns The path and why it is protected, or undefined.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { findProtectedWrite, resolveResources } from '@toolshed/core/internal';
 * declare const ctx: ToolContext;
 *
 * findProtectedWrite(resolveResources([{ path: '.git/config', access: 'write' }], ctx), { toolName: 'Write', ctx });
 * ```
 */
export function findProtectedWrite(
  paths: readonly GuardedPath[],
  { toolName, ctx }: PathCheckOptions,
): { path: GuardedPath; protection: ProtectedPath } | undefined {
  if (!paths.some((p) => p.access === 'write')) return undefined;
  // Also where the home directory's protected entries lead, when they are links (dotfiles).
  const isProtected = protectedWriteCheck({
    homeDir: ctx.permissions.homeDir,
    caseInsensitive: caseInsensitivePaths(ctx.permissions),
    workingDirectories: ctx.permissions.workingDirectories,
  });
  for (const path of paths) {
    if (path.access !== 'write') continue;
    for (const candidate of [path.lexical, ...path.real]) {
      const protection = isProtected(candidate);
      if (!protection) continue;
      if (explicitlyAllowed(toolName, path, protection, ctx)) break;
      return { path, protection };
    }
  }
  return undefined;
}

/** An allow rule that covers the path and mentions the protected name in its specifier. */
function explicitlyAllowed(
  toolName: string,
  path: GuardedPath,
  protection: ProtectedPath,
  ctx: Pick<ToolContext, 'cwd' | 'permissions'>,
): boolean {
  const allow = ctx.permissions.rules.allow;
  if (allow.length === 0) return false;
  const nocase = caseInsensitivePaths(ctx.permissions);
  const name = foldPath(protection.name, nocase);
  const { compile, bases } = pathRuleChecker(ctx);
  // Only the allow rules rooted at the path or above it can cover it (allow rules match its
  // physical forms): looked up by root, not a scan of every allow rule.
  for (const i of pathRuleCandidates(allow, path.real, { toolName, access: path.access, bases })) {
    const rule = allow[i]!;
    countRuleVisit();
    if (
      rule.ruleContent !== undefined &&
      foldPath(rule.ruleContent, nocase).split('/').includes(name) &&
      coversGuardedPath(compile, rule, toolName, path, true)
    )
      return true;
  }
  return false;
}

/**
 * The guarded paths outside every working directory that no allow path rule clears.
 *
 * @param paths The guarded paths.
 * @param options The tool called and the call's context.
 * @returns The paths that need a person's approval.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { outsideWorkingDirectories, resolveResources } from '@toolshed/core/internal';
 * declare const ctx: ToolContext;
 *
 * outsideWorkingDirectories(resolveResources([{ path: '/etc/passwd', access: 'read' }], ctx), { toolName: 'Read', ctx }).length; // 1
 * ```
 */
export function outsideWorkingDirectories(
  paths: readonly GuardedPath[],
  { toolName, ctx }: PathCheckOptions,
): GuardedPath[] {
  // A call that declares no path (most MCP tools, Bash without one) resolves no working directory.
  if (paths.length === 0) return [];
  const dirs = realWorkingDirectories(ctx.permissions, ctx.cwd);
  const nocase = caseInsensitivePaths(ctx.permissions);
  const fold = (text: string) => foldPath(text, nocase);
  return paths.filter((path) => {
    if (path.harmless) return false;
    const inside = path.real.every((p) => dirs.some((dir) => isPathInside(fold(p), fold(dir))));
    if (inside) return false;
    return findPathRule(ctx.permissions.rules.allow, [path], { toolName, ctx, realOnly: true }) === undefined;
  });
}

/**
 * The rule that would allow one guarded path, for suggestions.
 *
 * @param path The guarded path.
 * @returns `Read(//abs/path)` for a read, `Edit(//abs/path)` for a write, with the real path.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { pathRuleSuggestion, resolveResources } from '@toolshed/core/internal';
 * declare const ctx: ToolContext;
 *
 * const [hosts] = resolveResources([{ path: '/etc/hosts', access: 'read' }], ctx);
 * pathRuleSuggestion(hosts!); // 'Read(//etc/hosts)'
 * ```
 */
export function pathRuleSuggestion(path: GuardedPath): string {
  const target = path.real[0] ?? path.lexical;
  return `${path.access === 'read' ? 'Read' : 'Edit'}(/${target})`;
}

/** Compiles a path rule once per check; undefined for a rule whose pattern is malformed. */
export type PathRuleCompiler = (rule: PermissionRule) => CompiledPathRule | undefined;

/**
 * Compiles the path rules of one check against one call's context (see
 * {@linkcode compileSessionPathRule}: a rule is compiled once per session and kept while its
 * roots hold). The
 * working directories are resolved through symlinks at most once, and only when a bare-name rule
 * (`.env`, `*.pem`), the one kind matched below them, is compiled. Keep the compiler for one
 * check only: what it resolved goes stale when a symlink changes.
 *
 * @param ctx The call's context.
 * @param workingDirectories The real working directories, when the caller has them already.
 * @returns A compiler: the compiled rule, or undefined for a malformed pattern (reported when
 *   settings load; here it matches nothing).
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { pathRuleCompiler } from './path_guard.ts';
 * declare const ctx: ToolContext;
 *
 * const compile = pathRuleCompiler(ctx);
 * const denied = ctx.permissions.rules.deny.filter((rule) => compile(rule)?.covers('/p/.env'));
 * ```
 */
export function pathRuleCompiler(
  ctx: Pick<ToolContext, 'cwd' | 'permissions'>,
  workingDirectories?: readonly string[],
): PathRuleCompiler {
  return pathRuleChecker(ctx, workingDirectories).compile;
}

/**
 * {@linkcode pathRuleCompiler} with what an index of its rules depends on (see
 * {@linkcode pathRuleCandidates}): for the checks that look rules up by root.
 *
 * @param ctx The call's context.
 * @param workingDirectories The real working directories, when the caller has them already.
 * @returns The compiler and the bases of an index.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { pathRuleChecker } from './path_guard.ts';
 * import { pathRuleCandidates } from './path_rule_index.ts';
 * declare const ctx: ToolContext;
 *
 * const { bases } = pathRuleChecker(ctx);
 * pathRuleCandidates(ctx.permissions.rules.deny, ['/p/.env'], { toolName: 'Read', access: 'read', bases });
 * ```
 */
export function pathRuleChecker(
  ctx: Pick<ToolContext, 'cwd' | 'permissions'>,
  workingDirectories?: readonly string[],
): { compile: PathRuleCompiler; bases: PathRuleIndexBases } {
  let dirs = workingDirectories;
  let strictDirs: readonly string[] | undefined;
  const realDirs = () => (dirs ??= realWorkingDirectories(ctx.permissions, ctx.cwd));
  // Deny and ask rules' bare names match below the pinned directories and below where their
  // links lead now: a re-pointed link narrows what is allowed, never what is denied.
  const denyDirs = () =>
    (strictDirs ??= workingDirectories ?? realWorkingDirectories(ctx.permissions, ctx.cwd, { asLinkedNow: true }));
  const caseInsensitive = caseInsensitivePaths(ctx.permissions);
  const { cwd } = ctx;
  const { homeDir } = ctx.permissions;
  // Compiled rules are kept per session with the rule objects (compileSessionPathRule): no map per check.
  const compile: PathRuleCompiler = (rule) => {
    let result: CompiledPathRule | undefined;
    if (rule.ruleContent !== undefined) {
      try {
        result = compileSessionPathRule(rule, {
          cwd,
          homeDir,
          root: rule.root ?? cwd,
          caseInsensitive,
          // Read only for a bare name: the other anchors need no realpath of every working directory.
          get workingDirectories() {
            return rule.behavior === 'allow' ? realDirs() : denyDirs();
          },
        });
      } catch {
        // A malformed pattern is reported when settings load; here it matches nothing.
      }
    }
    return result;
  };
  const key = `${cwd}\0${homeDir ?? ''}\0${caseInsensitive ? 'i' : 's'}`;
  return { compile, bases: { compile, key, caseInsensitive, workingDirectories: denyDirs } };
}

/**
 * Whether a compiled rule covers a path, itself or through a parent folder; false when its glob
 * cannot be compiled.
 *
 * @param rule The compiled rule.
 * @param path An absolute path.
 * @returns The verdict.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { pathRuleCompiler, safeCovers } from './path_guard.ts';
 * declare const ctx: ToolContext;
 * const rule = ctx.permissions.rules.deny[0]!;
 *
 * safeCovers(pathRuleCompiler(ctx)(rule)!, '/p/.env'); // true for Read(.env)
 * ```
 */
export function safeCovers(rule: CompiledPathRule, path: string): boolean {
  try {
    return rule.covers(path);
  } catch {
    return false;
  }
}

/**
 * Whether a compiled rule covers a path by the whole path, not by a parent folder (see
 * {@linkcode CompiledPathRule.coversWhole}); false when its glob cannot be compiled.
 *
 * @param rule The compiled rule.
 * @param path An absolute path.
 * @returns The verdict.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { pathRuleCompiler, safeCoversWhole } from './path_guard.ts';
 * declare const ctx: ToolContext;
 * const rule = ctx.permissions.rules.deny[0]!;
 *
 * safeCoversWhole(pathRuleCompiler(ctx)(rule)!, '/p/.env'); // true for Read(.env)
 * ```
 */
export function safeCoversWhole(rule: CompiledPathRule, path: string): boolean {
  try {
    return rule.coversWhole(path);
  } catch {
    return false;
  }
}

function isDevice(path: string): boolean {
  try {
    const st = statSync(path);
    return st.isCharacterDevice() || st.isBlockDevice() || st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}

/**
 * Whether the session compares paths without regard to case: the context's
 * `caseInsensitivePaths`, or by default true on macOS and Windows (whose usual file systems
 * fold case) and false elsewhere.
 *
 * @param permissions The permission context.
 * @returns True when `.GIT` must be treated as `.git`.
 *
 * @example
 * ```ts
 * import { type PermissionContext } from '@toolshed/core';
 * import { caseInsensitivePaths } from '@toolshed/core/internal';
 * declare const context: PermissionContext;
 *
 * caseInsensitivePaths({ ...context, caseInsensitivePaths: true }); // true
 * ```
 */
export function caseInsensitivePaths(permissions: Pick<PermissionContext, 'caseInsensitivePaths'>): boolean {
  return permissions.caseInsensitivePaths ?? (process.platform === 'darwin' || process.platform === 'win32');
}
