import { matchWildcardSpecifier, type PermissionBehavior, type PermissionMatcher } from '@toolshed/core';
import { analyzeCommand, type ShellWord, type SimpleCommand } from './bash_parser.ts';
import { SHELLS, WRAPPERS } from './read_only_rules.ts';
import { scriptWords } from './_script_words.ts';
import { unwrapOnce } from './_unwrap.ts';

/**
 * More simple commands than this in one call and the call asks, whatever the rules say.
 *
 * @example
 * ```ts
 * import { MAX_COMMAND_PARTS, splitCommand } from '@toolshed/tool-shell/internal';
 * const cmd = 'ls && pwd';
 *
 * splitCommand(cmd).parts.length > MAX_COMMAND_PARTS; // then the call asks
 * ```
 */
export const MAX_COMMAND_PARTS = 50;

/** One simple command of a compound command, in the forms rules are matched against. */
export interface CommandPart {
  /** The part as written (environment prefixes included, redirections left out). */
  text: string;
  /** Forms an allow rule may match: as written, and with known wrappers looked through. */
  allowForms: string[];
  /**
   * Forms a deny or ask rule may match: the allow forms, plus without environment prefixes,
   * with quotes removed, with the program's directory removed, through wrappers with
   * assignments, and the commands inside `bash -c '…'` and `eval`.
   */
  denyForms: string[];
}

/** What {@linkcode splitCommand} found. */
export interface CommandSplit {
  /** False when the command could not be parsed: only the whole string and a rough split are known. */
  ok: boolean;
  parts: CommandPart[];
}

const MAX_DEPTH = 3;

/**
 * Splits a command into its simple commands — through `&&`, `||`, `;`, `|`, newlines,
 * subshells, substitutions, function bodies and control structures — each with the forms
 * permission rules are matched against. A command that does not parse gives `ok: false`, the
 * whole string as one part, and a rough split on shell operators for deny rules.
 *
 * @param command The command string.
 * @returns The parts.
 *
 * @example
 * ```ts
 * import { loadBashParser, splitCommand } from '@toolshed/tool-shell/internal';
 *
 * await loadBashParser();
 * splitCommand('timeout 5 rm -rf build && ls').parts.map((p) => p.denyForms.at(-1));
 * // ['rm -rf build', 'ls']
 * ```
 */
export function splitCommand(command: string): CommandSplit {
  return split(command, 0);
}

function split(command: string, depth: number): CommandSplit {
  const analysis = analyzeCommand(command);
  if (!analysis.ok) {
    // bash joins backslash-newlines before it reads words (`r\⏎m x` runs `rm x`).
    const rough = command
      .replace(/\\\n/g, '')
      .split(/&&|\|\||[;&|\n(){}`]|\$\(/)
      .map((s) => s.trim())
      .filter(Boolean);
    const whole = command.trim();
    return {
      ok: false,
      parts: [{ text: whole, allowForms: [], denyForms: [whole, ...rough, ...rough.map(stripPrefixes)] }],
    };
  }
  return { ok: true, parts: analysis.commands.map((c) => partOf(c, depth)) };
}

function partOf(command: SimpleCommand, depth: number): CommandPart {
  const text = command.text;
  if (command.kind !== 'command' || !command.name) return { text, allowForms: [text], denyForms: [text] };
  const words = [command.name, ...command.args];
  const allowForms = [text];
  const denyForms = [text, ...formsOf(words)];
  if (command.assignments.length === 0) {
    for (const inner of unwrap(words, false)) allowForms.push(source(inner));
  }
  for (const inner of unwrap(words, true)) {
    denyForms.push(...formsOf(inner));
    denyForms.push(...nestedForms(inner, depth));
  }
  denyForms.push(...nestedForms(words, depth));
  return { text, allowForms: unique(allowForms), denyForms: unique(denyForms) };
}

/** As written, with quotes removed, and with the program's directory removed. */
function formsOf(words: readonly ShellWord[]): string[] {
  const values = words.map((w) => w.value);
  const base = values[0]?.replace(/^.*\//, '') ?? '';
  return [source(words), values.join(' '), [base, ...values.slice(1)].join(' ')];
}

function source(words: readonly ShellWord[]): string {
  return words.map((w) => w.text).join(' ');
}

/**
 * The commands a wrapper runs: `timeout 5 rm x` → `rm x`, recursively. With `lenient` false
 * (allow rules) `env` with assignments is not looked through, since the assignments change
 * what the inner command does, nor a wrapper with `notForAllow` (`sudo`, `xargs`, `watch`, …).
 */
function unwrap(words: readonly ShellWord[], lenient: boolean): ShellWord[][] {
  const out: ShellWord[][] = [];
  let current: readonly ShellWord[] = words;
  for (let guard = 0; guard < 8; guard++) {
    const found = unwrapOnce(current);
    if (!found || (!lenient && (found.assigned || WRAPPERS[found.wrapper]?.notForAllow !== undefined))) break;
    current = found.inner;
    out.push(found.inner);
  }
  return out;
}

/**
 * For deny rules, what else a command runs: the parts of `bash -c '…'` (also `bash -c -- '…'`),
 * `eval …` and `env -S '…'`, the commands of `find -exec|-execdir|-ok|-okdir … ;`, and git
 * with its global options left out (`git -C x push` meets `Bash(git push:*)`).
 */
function nestedForms(words: readonly ShellWord[], depth: number): string[] {
  if (depth >= MAX_DEPTH) return [];
  const name = words[0]?.value.replace(/^.*\//, '');
  if (name === 'find') return findExecForms(words, depth);
  if (name === 'git') {
    const sub = gitWithoutGlobalOptions(words);
    return sub ? formsOf(sub) : [];
  }
  let script: string | undefined;
  if (name === 'eval')
    script = words
      .slice(1)
      .map((w) => w.value)
      .join(' ');
  else if (name && SHELLS.includes(name)) {
    const at = words.findIndex((w, i) => i > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(w.value));
    if (at !== -1) script = words[at + 1]?.value === '--' ? words[at + 2]?.value : words[at + 1]?.value;
  } else if (name === 'script') script = scriptWords(words.slice(1)).command?.value;
  else if (name === 'env') {
    for (let i = 1; i < words.length && script === undefined; i++) {
      const v = words[i]!.value;
      if (v === '-S' || v === '--split-string') script = words[i + 1]?.value;
      else if (v.startsWith('--split-string=')) script = v.slice('--split-string='.length);
      else if (/^-[^-]*S./.test(v)) script = v.slice(v.indexOf('S') + 1);
    }
  }
  if (!script) return [];
  return split(script, depth + 1).parts.flatMap((p) => p.denyForms);
}

const FIND_EXEC = ['-exec', '-execdir', '-ok', '-okdir'];

function findExecForms(words: readonly ShellWord[], depth: number): string[] {
  const out: string[] = [];
  for (let i = 1; i < words.length; i++) {
    if (!FIND_EXEC.includes(words[i]!.value)) continue;
    const end = words.findIndex((w, j) => j > i && (w.value === ';' || w.value === '+'));
    const inner = words.slice(i + 1, end === -1 ? undefined : end);
    if (inner.length === 0) continue;
    out.push(...formsOf(inner), ...nestedForms(inner, depth + 1));
    for (const wrapped of unwrap(inner, true)) out.push(...formsOf(wrapped));
  }
  return out;
}

const GIT_OPTIONS_WITH_VALUE = [
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--super-prefix',
  '--exec-path',
];

/** `git -C x --no-pager push` → `git push`; undefined when there are no global options. */
function gitWithoutGlobalOptions(words: readonly ShellWord[]): ShellWord[] | undefined {
  let i = 1;
  while (i < words.length && words[i]!.value.startsWith('-')) {
    const v = words[i]!.value;
    i += GIT_OPTIONS_WITH_VALUE.includes(v) && v !== '--exec-path' ? 2 : 1;
  }
  if (i === 1 || i >= words.length) return undefined;
  return [words[0]!, ...words.slice(i)];
}

function stripPrefixes(text: string): string {
  return text.replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, '');
}

function unique(list: string[]): string[] {
  return [...new Set(list.filter((s) => s !== ''))];
}

/**
 * Whether a `Bash(…)` rule's specifier covers a command, Claude Code's way: for a compound
 * command an allow rule must match every part, while a deny or ask rule matches if any part
 * does. Known wrappers are looked through (`timeout 5 rm -rf x` meets `Bash(rm:*)`), and so are
 * `bash -c` and `eval` for deny and ask rules. A command that does not parse, or has more than
 * {@linkcode MAX_COMMAND_PARTS} parts, matches no allow rule except its exact text.
 *
 * @param command The command string.
 * @param rule The rule's specifier (`content`, such as `npm run test:*`) and the list it is from (`behavior`).
 * @returns True when the rule covers the command.
 *
 * @example
 * ```ts
 * import { loadBashParser, matchCommandRule } from '@toolshed/tool-shell/internal';
 *
 * await loadBashParser();
 * matchCommandRule('npm run test -- --watch', { content: 'npm run test:*', behavior: 'allow' }); // true
 * matchCommandRule('npm run test-evil', { content: 'npm run test:*', behavior: 'allow' });       // false
 * matchCommandRule('ls && rm -rf /', { content: 'rm:*', behavior: 'deny' });                     // true
 * ```
 */
export function matchCommandRule(command: string, rule: { content: string; behavior: PermissionBehavior }): boolean {
  const { content: ruleContent, behavior } = rule;
  const whole = command.trim();
  if (behavior === 'allow' && !ruleContent.includes('*') && ruleContent === whole) return true;
  const { ok, parts } = splitCommand(command);
  if (behavior === 'allow') {
    if (!ok || parts.length === 0 || parts.length > MAX_COMMAND_PARTS) return false;
    return parts.every((p) => p.allowForms.some((form) => matchWildcardSpecifier(ruleContent, form)));
  }
  if (matchWildcardSpecifier(ruleContent, whole)) return true;
  return parts.some((p) => p.denyForms.some((form) => matchWildcardSpecifier(ruleContent, form)));
}

/**
 * The Bash tool's `preparePermissionMatcher`: {@linkcode matchCommandRule} bound to one command.
 *
 * @param command The command string.
 * @returns The matcher the permission layer calls per rule.
 *
 * @example
 * ```ts
 * import { commandMatcher } from '@toolshed/tool-shell/internal';
 *
 * const matcher = commandMatcher('git status && git push');
 * matcher('git status', 'allow'); // false: `git push` is not covered
 * ```
 */
export function commandMatcher(command: string): PermissionMatcher {
  return (ruleContent, behavior) => matchCommandRule(command, { content: ruleContent, behavior });
}
