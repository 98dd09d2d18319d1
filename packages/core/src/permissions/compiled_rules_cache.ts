import { homedir } from 'node:os';
import { compilePathRule, pathRuleRoots, type CompiledPathRule, type PathRuleBases } from './path_rule.ts';
import { cachedRealPath, currentTurn } from './real_path_cache.ts';
import type { PermissionRule } from './types.ts';

interface CompiledEntry {
  key: string;
  compiled: CompiledPathRule;
  /** For a bare-name rule: the working directories it was compiled for. */
  workingDirectories?: string;
  /** Otherwise: the lexical root and the physical root it was compiled with. */
  lexical?: string;
  real?: string;
  homeDir: string;
  checked: number;
}

const compiledRules = new WeakMap<PermissionRule, CompiledEntry>();

/**
 * {@linkcode compilePathRule} for a rule of the session's settings, kept with the rule object
 * for as long as what it was compiled against holds: the same bases (cwd, home, settings root,
 * case folding), the same working directories for a bare name, and a root whose physical path
 * {@linkcode cachedRealPath} still confirms (checked once per turn of the event loop). Settings
 * that change give new rule objects, which compile afresh; so a check with a thousand rules
 * neither parses nor resolves a thousand rules again.
 *
 * @param rule The rule (its object identity is the cache key).
 * @param bases What the anchors stand for.
 * @returns The compiled rule.
 * @throws {ToolshedError} As {@linkcode compilePathRule}, for a malformed specifier (not cached).
 *
 * @example
 * ```ts
 * const compiled = compileSessionPathRule(rule, { cwd, workingDirectories: [cwd] });
 * compiled.covers('/p/.env');
 * ```
 */
export function compileSessionPathRule(rule: PermissionRule, bases: PathRuleBases): CompiledPathRule {
  const content = rule.ruleContent ?? '';
  const homeDir = bases.homeDir ?? homedir();
  const key = `${bases.cwd}\0${homeDir}\0${bases.root ?? ''}\0${bases.caseInsensitive === true ? 'i' : 's'}\0${content}`;
  const now = currentTurn();
  const entry = compiledRules.get(rule);
  if (entry !== undefined && entry.key === key) {
    if (entry.checked === now) {
      if (entry.workingDirectories === undefined || entry.workingDirectories === bases.workingDirectories.join('\0')) return entry.compiled;
    } else if (entry.workingDirectories !== undefined) {
      if (entry.workingDirectories === bases.workingDirectories.join('\0')) {
        entry.checked = now;
        return entry.compiled;
      }
    } else if (cachedRealPath(entry.lexical!, homeDir) === entry.real) {
      entry.checked = now;
      return entry.compiled;
    }
  }
  const { dirs, anywhere } = pathRuleRoots(content, bases);
  const compiled = compilePathRule(content, bases);
  const fresh: CompiledEntry = { key, compiled, homeDir, checked: now };
  if (anywhere) fresh.workingDirectories = bases.workingDirectories.join('\0');
  else {
    fresh.lexical = dirs[0]!;
    fresh.real = dirs[dirs.length - 1]!;
  }
  compiledRules.set(rule, fresh);
  return compiled;
}
