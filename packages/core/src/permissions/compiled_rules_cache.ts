import { homedir } from 'node:os';
import { compilePathRule, pathRuleRoots, type CompiledPathRule, type PathRuleBases } from './path_rule.ts';
import { physicalRootOf, pinnedPhysicalRoot, rootCacheEpoch } from './real_path_cache.ts';
import type { PermissionRule } from './types.ts';

interface CompiledEntry {
  cwd: string;
  homeDir: string | undefined;
  root: string | undefined;
  nocase: boolean;
  content: string;
  compiled: CompiledPathRule;
  /** For a bare-name rule: the working directories it was compiled for. */
  workingDirectories?: string;
  /** Otherwise: the lexical root, and the physical root (as its links led) it was compiled with. */
  lexical?: string;
  real?: string;
  /** The root cache's epoch at which the physical root was last confirmed. */
  epoch: number;
}

const compiledRules = new WeakMap<PermissionRule, CompiledEntry>();

/**
 * {@linkcode compilePathRule} for a rule of the session's settings, kept with the rule object
 * for as long as what it was compiled against holds: the same bases (cwd, home, settings root,
 * case folding), the same working directories for a bare name, and a root whose physical path
 * {@linkcode physicalRootOf} still confirms (which costs nothing while no looked-up path has
 * changed: see {@linkcode rootCacheEpoch}). Settings that change give new rule objects, which
 * compile afresh; so a check with a thousand rules neither parses nor resolves them again.
 *
 * @param rule The rule (its object identity is the cache key).
 * @param bases What the anchors stand for.
 * @returns The compiled rule.
 * @throws {ToolshedError} As {@linkcode compilePathRule}, for a malformed specifier (not cached).
 *
 * @example
 * ```ts
 * import { parseRule } from '@toolshed/core/internal';
 * import { compileSessionPathRule } from './compiled_rules_cache.ts';
 * const rule = parseRule('Read(./.env)', { behavior: 'deny', source: 'session' });
 * const cwd = process.cwd();
 *
 * const compiled = compileSessionPathRule(rule, { cwd, workingDirectories: [cwd] });
 * compiled.covers('/p/.env');
 * ```
 */
export function compileSessionPathRule(rule: PermissionRule, given: PathRuleBases): CompiledPathRule {
  const content = rule.ruleContent ?? '';
  // An allow rule's root is matched as first resolved: a link re-pointed later must not widen it.
  // A deny or ask rule's root is matched as first resolved and as its links lead now.
  const pinned = rule.behavior === 'allow';
  const bases: PathRuleBases = pinned ? { ...given, pinnedRoots: true } : given;
  const rootNow = pinned ? pinnedPhysicalRoot : physicalRootOf;
  const nocase = bases.caseInsensitive === true;
  const entry = compiledRules.get(rule);
  if (
    entry !== undefined &&
    entry.content === content &&
    entry.cwd === bases.cwd &&
    entry.homeDir === bases.homeDir &&
    entry.root === bases.root &&
    entry.nocase === nocase
  ) {
    if (entry.workingDirectories !== undefined) {
      if (entry.workingDirectories === bases.workingDirectories.join('\0')) return entry.compiled;
    } else {
      const epoch = rootCacheEpoch();
      if (entry.epoch === epoch) return entry.compiled;
      if (rootNow(entry.lexical!, bases.homeDir ?? homedir()) === entry.real) {
        entry.epoch = epoch;
        return entry.compiled;
      }
    }
  }
  const { dirs, anywhere } = pathRuleRoots(content, bases);
  const compiled = compilePathRule(content, bases);
  const lexical = dirs[0]!;
  const fresh: CompiledEntry = {
    cwd: bases.cwd,
    homeDir: bases.homeDir,
    root: bases.root,
    nocase,
    content,
    compiled,
    epoch: rootCacheEpoch(),
  };
  if (anywhere) fresh.workingDirectories = bases.workingDirectories.join('\0');
  else {
    fresh.lexical = lexical;
    // What the roots were compiled with, as the check above asks it again (cached: no lookup).
    fresh.real = rootNow(lexical, bases.homeDir ?? homedir());
  }
  compiledRules.set(rule, fresh);
  return compiled;
}
