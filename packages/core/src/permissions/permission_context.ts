import { ToolshedError } from '../errors.ts';
import { resolvePath } from './resolve_path.ts';
import { checkRuleSpecifier } from './check_rule_specifier.ts';
import { PERMISSION_RULE_INVALID, parseRules } from './rule_parser.ts';
import { PERMISSION_MODES } from './types.ts';
import { pinPermissionRoots } from './_pin_roots.ts';
import type {
  PermissionBehavior,
  PermissionContext,
  PermissionMode,
  PermissionOptions,
  PermissionRule,
} from './types.ts';

/** The error code of permission options that are not rules (a bad mode, a list that is not a list). */
export const PERMISSION_OPTIONS_INVALID = 'permission_options_invalid' as const;

const BEHAVIORS: readonly PermissionBehavior[] = ['allow', 'deny', 'ask'];

/**
 * Builds the permission state of a session from its `permissions` options (or one settings
 * file's `permissions` key): parses the rule lists, checks the mode, and resolves the working
 * directories. Problems are collected, not thrown, so that every one can be reported at once;
 * what is wrong is left out (a bad rule) or kept at its safe default (a bad mode stays
 * `default`), never loosened.
 *
 * @param permissions The permission options; undefined gives the defaults.
 * @param cwd The session's working directory; relative additional directories resolve against it.
 * @param options Where the permission options came from (`source`), and for a settings file
 *   its placement: the `root` its `/x` specifiers are relative to, what its relative
 *   `additionalDirectories` resolve against, the home directory, case folding.
 * @returns The context, and one error per problem (`permission_rule_invalid` or
 *   `permission_options_invalid`).
 *
 * @example
 * ```ts
 * import { createPermissionContext } from '@toolshed/core/internal';
 *
 * const { context, errors } = createPermissionContext(
 *   { mode: 'acceptEdits', allow: ['Bash(npm test:*)'], additionalDirectories: ['../shared'] },
 *   '/home/u/proj',
 * );
 * context.workingDirectories; // ['/home/u/proj', '/home/u/shared']
 * errors.length;              // 0
 * ```
 */
export function createPermissionContext(
  permissions: PermissionOptions | undefined,
  cwd: string,
  options: CreatePermissionContextOptions = {},
): { context: PermissionContext; errors: ToolshedError[] } {
  const { source = 'options', ...placement } = options;
  const errors: ToolshedError[] = [];
  const opts: PermissionOptions = permissions ?? {};
  const root = resolvePath(cwd, process.cwd());
  const home = placement.homeDir;

  let mode: PermissionMode = 'default';
  if (opts.mode !== undefined) {
    if (PERMISSION_MODES.includes(opts.mode)) mode = opts.mode;
    else {
      const valid = PERMISSION_MODES.map((m) => `"${m}"`).join(', ');
      errors.push(
        invalidOption(`Permission mode ${describe(opts.mode)} (from ${source}) is not a mode: use one of ${valid}`),
      );
    }
  }

  const rules: Record<PermissionBehavior, PermissionRule[]> = { allow: [], deny: [], ask: [] };
  for (const behavior of BEHAVIORS) {
    const list: unknown = opts[behavior];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      errors.push(
        invalidOption(
          `permissions.${behavior} (from ${source}) must be a list of rule strings, got ${describe(list)}: write for example ${behavior}: ["Bash(npm test:*)"]`,
        ),
      );
      continue;
    }
    const parsed = parseRules(list as string[], { behavior, source });
    errors.push(...parsed.errors);
    for (const rule of parsed.rules) {
      const problem = checkRuleSpecifier(rule);
      if (problem !== undefined) {
        errors.push(new ToolshedError(PERMISSION_RULE_INVALID, `${problem} (permissions.${behavior}, from ${source})`));
        continue;
      }
      if (placement.root !== undefined) rule.root = placement.root;
      rules[behavior].push(rule);
    }
  }

  const workingDirectories = [root];
  const extra: unknown = opts.additionalDirectories;
  if (extra !== undefined && !Array.isArray(extra)) {
    errors.push(
      invalidOption(
        `permissions.additionalDirectories (from ${source}) must be a list of directory paths, got ${describe(extra)}: write for example additionalDirectories: ["../shared"]`,
      ),
    );
  } else {
    for (const dir of (extra ?? []) as unknown[]) {
      if (typeof dir !== 'string' || dir.trim() === '') {
        errors.push(
          invalidOption(
            `permissions.additionalDirectories (from ${source}) has an entry ${describe(dir)} that is not a directory path: use a path such as "../shared" or "/srv/data"`,
          ),
        );
        continue;
      }
      const base = placement.directoriesRelativeTo ?? root;
      const resolved =
        home !== undefined && (dir === '~' || dir.startsWith('~/'))
          ? resolvePath(dir.slice(1).replace(/^\//, ''), home)
          : resolvePath(dir, base);
      if (!workingDirectories.includes(resolved)) workingDirectories.push(resolved);
    }
  }

  // Frozen, rules and lists: the indexes kept with a list (by tool, by root) then never need to
  // look at it again to know it is as it was.
  const context: PermissionContext = {
    mode,
    rules: { allow: frozenRules(rules.allow), deny: frozenRules(rules.deny), ask: frozenRules(rules.ask) },
    workingDirectories,
  };
  if (home !== undefined) context.homeDir = home;
  if (placement.caseInsensitivePaths !== undefined) context.caseInsensitivePaths = placement.caseInsensitivePaths;
  pinPermissionRoots(context, root);
  return { context, errors };
}

/** Options of {@linkcode createPermissionContext}: where the permission options came from and sit. */
export interface CreatePermissionContextOptions extends PermissionPlacement {
  /**
   * Where the options came from, named in errors and on every rule: `options`, `cli`, or a
   * settings file path.
   * @default 'options'
   */
  source?: string | undefined;
}

/** Where a layer of permission options sits: for {@linkcode createPermissionContext}. */
export interface PermissionPlacement {
  /** What settings-relative specifiers (`Read(/src/**)`) resolve against, set on every rule. @default cwd */
  root?: string | undefined;
  /** What relative `additionalDirectories` resolve against. @default cwd */
  directoriesRelativeTo?: string | undefined;
  /** What `~` stands for; kept on the context. @default os.homedir() */
  homeDir?: string | undefined;
  /** Kept on the context; see {@linkcode PermissionContext.caseInsensitivePaths}. */
  caseInsensitivePaths?: boolean | undefined;
}

/**
 * Layers one permission context over another, as settings files are layered: rules are
 * concatenated (base first, so every source's rules count and deny still beats allow), working
 * directories are joined without duplicates (the base's cwd stays first), and the mode is the
 * layer's when it has one.
 *
 * @param base The lower layer (for example user settings).
 * @param extra The upper layer (for example project settings); its `mode` wins when present.
 * @returns A new context; neither argument is changed.
 *
 * @example
 * ```ts
 * import { createPermissionContext, mergePermissionContexts } from '@toolshed/core/internal';
 *
 * const user = createPermissionContext({ allow: ['Read'] }, '/p', { source: '~/.toolshed/settings.json' }).context;
 * const project = createPermissionContext({ deny: ['WebFetch'] }, '/p', { source: '/p/.toolshed/settings.json' }).context;
 * const merged = mergePermissionContexts(user, { rules: project.rules });
 * merged.rules.deny.map((r) => r.raw); // ['WebFetch']
 * ```
 */
export function mergePermissionContexts(base: PermissionContext, extra: PermissionContextLayer): PermissionContext {
  const dirs = [...base.workingDirectories];
  for (const dir of extra.workingDirectories ?? []) if (!dirs.includes(dir)) dirs.push(dir);
  const merged: PermissionContext = {
    mode: extra.mode ?? base.mode,
    rules: {
      allow: frozenList([...base.rules.allow, ...(extra.rules?.allow ?? [])]),
      deny: frozenList([...base.rules.deny, ...(extra.rules?.deny ?? [])]),
      ask: frozenList([...base.rules.ask, ...(extra.rules?.ask ?? [])]),
    },
    workingDirectories: dirs,
  };
  const homeDir = extra.homeDir ?? base.homeDir;
  if (homeDir !== undefined) merged.homeDir = homeDir;
  const caseInsensitive = extra.caseInsensitivePaths ?? base.caseInsensitivePaths;
  if (caseInsensitive !== undefined) merged.caseInsensitivePaths = caseInsensitive;
  return merged;
}

/** What {@linkcode mergePermissionContexts} layers on top: any part of a context. */
export interface PermissionContextLayer {
  mode?: PermissionMode | undefined;
  rules?: Partial<PermissionContext['rules']> | undefined;
  workingDirectories?: readonly string[] | undefined;
  homeDir?: string | undefined;
  caseInsensitivePaths?: boolean | undefined;
}

/** A list of rules made here: each rule and the list frozen. */
function frozenRules(rules: PermissionRule[]): readonly PermissionRule[] {
  for (const rule of rules) Object.freeze(rule);
  return Object.freeze(rules);
}

/** A new list of rules from elsewhere: frozen itself, its rules as they are (they may belong to the caller). */
function frozenList(rules: PermissionRule[]): readonly PermissionRule[] {
  return Object.freeze(rules);
}

function invalidOption(message: string): ToolshedError {
  return new ToolshedError(PERMISSION_OPTIONS_INVALID, message);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `${String(value)} (a ${typeof value})`;
}
