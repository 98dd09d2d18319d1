import { realpathSync } from 'node:fs';
import path from 'node:path';
import { caseInsensitivePaths, matchPathRule, pathRuleApplies, pathRuleRoots, realWorkingDirectories, type PathRuleBases, type ToolContext } from '@toolshed/core';

/**
 * A test for the files a search found that a deny rule covers (`Read(./.env)`,
 * `Read(./secret/**)`, or one naming the tool), so that Glob and Grep leave them out: the
 * permission layer sees only the folder searched, and a search must not show what Read would
 * refuse. Paths are judged as found below the folder's real path (the walk follows no links),
 * with core's {@linkcode matchPathRule}, so the verdict is the one Read would get.
 *
 * @param toolName The searching tool (`Glob`, `Grep`): `Read(...)` rules cover both.
 * @param root The folder searched (absolute); found paths are relative to it.
 * @param ctx The call's context.
 * @returns A test taking a path relative to `root`, or undefined when no deny rule could apply.
 *
 * @example
 * ```ts
 * const denied = deniedPathTest('Grep', '/repo', ctx);
 * const shown = denied ? files.filter((f) => !denied(f)) : files;
 * ```
 */
export function deniedPathTest(toolName: string, root: string, ctx: Pick<ToolContext, 'cwd' | 'permissions'>): ((rel: string) => boolean) | undefined {
  const rules = ctx.permissions.rules.deny.filter((rule) => rule.ruleContent !== undefined && pathRuleApplies(rule, toolName, 'read'));
  if (rules.length === 0) return undefined;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    realRoot = root;
  }
  // Worked out once per search, not once per file: the working directories cost a realpath each.
  const workingDirectories = realWorkingDirectories(ctx.permissions, ctx.cwd);
  const caseInsensitive = caseInsensitivePaths(ctx.permissions);
  const checks = rules.map((rule) => {
    const bases: PathRuleBases = { cwd: ctx.cwd, homeDir: ctx.permissions.homeDir, root: rule.root ?? ctx.cwd, workingDirectories, caseInsensitive };
    return (p: string) => {
      try {
        return matchPathRule(rule.ruleContent!, p, bases);
      } catch {
        return false; // a malformed rule is reported when settings load; it matches nothing
      }
    };
  });
  // For a file, matchPathRule tries its folders (the verdict cached below) and then the whole
  // path, compiling a matcher each time. The common rule shapes are tested here directly: a rule
  // without a glob (`./config/secrets.json`) by equality, `./secret/**` by the folder, a name
  // pattern of literals, `*` and `?` (`.env`, `*.pem`, `**/*.key`) by the file's name. Other
  // globs go to matchPathRule.
  const literals = rules.map((rule) => {
    if (caseInsensitive) return undefined;
    let roots;
    try {
      roots = pathRuleRoots(rule.ruleContent!, { cwd: ctx.cwd, homeDir: ctx.permissions.homeDir, root: rule.root ?? ctx.cwd, workingDirectories });
    } catch {
      return undefined;
    }
    if (!roots.anywhere && roots.glob === '') return { dirs: roots.dirs, exact: true as const };
    // `./secret/**`: the folder and everything below it (core counts the folder itself in).
    if (!roots.anywhere && roots.glob === '**') return { dirs: roots.dirs, exact: false as const, name: /^/, orSelf: true };
    // `*.pem` anywhere, or `**/*.pem` below a folder: the whole path matches when its name does.
    const segment = roots.anywhere ? roots.glob : /^\*\*\/([^/]+)$/.exec(roots.glob)?.[1];
    const name = segment === undefined ? undefined : simpleSegmentMatcher(segment);
    return name === undefined ? undefined : { dirs: roots.dirs, exact: false as const, name, orSelf: false };
  });
  // A rule that covers a folder covers everything in it: one verdict per folder.
  const folders = new Map<string, boolean>();
  const deniedFolder = (dir: string): boolean => {
    let verdict = folders.get(dir);
    if (verdict === undefined) {
      const abs = path.join(realRoot, dir);
      verdict = checks.some((check) => check(abs)) || (root !== realRoot && checks.some((check) => check(path.join(root, dir))));
      folders.set(dir, verdict);
    }
    return verdict;
  };
  const fileMatches = (abs: string) =>
    checks.some((check, i) => {
      const literal = literals[i];
      if (literal === undefined) return check(abs);
      // A rule naming a file or folder itself (`./.env`): the whole path is that name.
      if (literal.exact) return literal.dirs.includes(abs);
      if (literal.orSelf && literal.dirs.includes(abs)) return true;
      return literal.name.test(abs.slice(abs.lastIndexOf(path.sep) + 1)) && literal.dirs.some((dir) => isInside(abs, dir));
    });
  return (rel) => {
    const slash = rel.lastIndexOf('/');
    if (slash !== -1 && deniedFolder(rel.slice(0, slash))) return true;
    if (slash === -1 && deniedFolder('')) return true;
    if (fileMatches(path.join(realRoot, rel))) return true;
    return root !== realRoot && fileMatches(path.join(root, rel));
  };
}

function isInside(abs: string, dir: string): boolean {
  const rel = path.relative(dir, abs);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/**
 * A matcher for one path segment's glob made of literal characters, `*` and `?` only, where
 * picomatch's meaning (dot files included) is plain: `*` any run of characters, `?` one. Other
 * globs give undefined, to be matched by core.
 */
function simpleSegmentMatcher(glob: string): RegExp | undefined {
  if (!/^[^/\\[\]{}()!+@|]+$/.test(glob)) return undefined;
  const source = glob.replace(/[.^$]/g, '\\$&').replace(/\*+/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 's');
}
