import { analyzeCommand, isBashParserLoaded, type SimpleCommand } from './bash_parser.ts';
import { classifyCommand } from './classify_command.ts';
import { commandResources } from './command_resources.ts';
import { MAX_COMMAND_PARTS, splitCommand } from './command_matcher.ts';
import { isDestructiveCommand } from './_destructive.ts';

/** A word that reads as a subcommand (`run`, `test`, `build:prod`), not a flag, path or expansion. */
const SUBCOMMAND = /^[A-Za-z0-9][A-Za-z0-9_:@+=-]*$/;

/**
 * The `Bash(…)` allow rules that would allow a command, built from its parsed parts: one rule
 * per part that is not read-only already (a read-only part with every path known needs none),
 * each the narrowest rule that covers the part: for a program with up to two subcommand words
 * and nothing else, that prefix (`FOO=1 npm test:*`, `npm run build:*`), else the part's exact
 * text (`Bash(touch made.txt)`, `Bash(git push origin main)`). A
 * destructive part (`rm`, `git reset --hard`, …) gets its exact text as the rule, and none at
 * all when it names a path outside the current folder (absolute, `~` or `..`) or follows a `cd`
 * that may leave it (`cd ../out && rm f`): then the call
 * gets no suggestion, since a rule would allow more than a person meant. Adding every rule
 * allows the command (the Bash tool allows a compound command whose parts are each allowed).
 *
 * @param command The command string.
 * @returns The rules, without repeats; the whole command as an exact rule when it does not
 *   parse; an empty list for a destructive command outside the current folder.
 *
 * @example
 * ```ts
 * import { loadBashParser } from '@toolshed/tool-shell/internal';
 * import { shellRuleSuggestions } from './shell_suggestions.ts';
 *
 * await loadBashParser();
 * shellRuleSuggestions('cd src && FOO=1 npm run build && rm -rf dist');
 * // ['Bash(FOO=1 npm run build:*)', 'Bash(rm -rf dist)']
 * shellRuleSuggestions('npm test && rm -rf /'); // []
 * ```
 */
export function shellRuleSuggestions(command: string): string[] {
  if (!isBashParserLoaded()) return [`Bash(${command.trim()})`];
  const split = splitCommand(command);
  if (!split.ok || split.parts.length === 0 || split.parts.length > MAX_COMMAND_PARTS)
    return [`Bash(${command.trim()})`];
  const out: string[] = [];
  // After a `cd` that may leave the current folder (`cd ../out`, `cd /tmp`, `cd`, `cd "$D"`), a
  // destructive part's relative paths are outside it too: no rule, as for `rm ../out/f`.
  let left = false;
  for (const part of split.parts) {
    left ||= leavesFolder(part.text);
    if (partIsReadOnly(part.text)) continue;
    if (left && isDestructiveCommand(part.text)) return [];
    const rule = partRule(part.text);
    if (rule === null) return [];
    if (!out.includes(rule)) out.push(rule);
  }
  return out.length > 0 ? out : [`Bash(${command.trim()})`];
}

/** Whether a part changes the shell's folder to one that may be outside the current one. */
function leavesFolder(text: string): boolean {
  const analysis = analyzeCommand(text);
  if (!analysis.ok) return false;
  return analysis.commands.some(
    (c) =>
      ['cd', 'pushd', 'popd'].includes(c.name?.value ?? '') &&
      (c.name?.value === 'popd' || c.args.length === 0 || c.args.some((w) => !w.literal || outsideWord(w.value))),
  );
}

/** A word naming a path outside the current folder: absolute, `~`, `-` (the previous folder) or with `..`. */
function outsideWord(value: string): boolean {
  return /^(\/|~|-$)/.test(value) || /(^|\/)\.\.(\/|$)/.test(value);
}

/** Whether a part is allowed without a rule: read-only, and every path it touches known. */
function partIsReadOnly(text: string): boolean {
  if (!classifyCommand(text).readOnly) return false;
  return commandResources(text, '/', {}).accesses.every((a) => a.kind !== 'unknown');
}

/** The narrowest rule covering one part; null for a destructive part outside the current folder. */
function partRule(text: string): string | null {
  const analysis = analyzeCommand(text);
  const simple: SimpleCommand | undefined =
    analysis.ok && analysis.commands.length === 1 ? analysis.commands[0] : undefined;
  if (!simple || simple.kind !== 'command' || !simple.name?.literal) return `Bash(${text})`;
  if (isDestructiveCommand(text)) {
    const outside = simple.args.some((w) => !w.literal || (w.value !== '-' && outsideWord(w.value)));
    return outside ? null : `Bash(${text})`;
  }
  // A program and up to two subcommand words, and nothing else: that prefix (`npm run build:*`,
  // so later flags still match). Anything more (a path, a flag, a third word): the part exactly.
  const plain =
    simple.args.length <= 2 &&
    simple.args.every((arg) => arg.literal && SUBCOMMAND.test(arg.value) && arg.text === arg.value);
  if (!plain) return `Bash(${text})`;
  const words = [...simple.assignments.map((w) => w.text), simple.name.text, ...simple.args.map((w) => w.text)];
  return `Bash(${words.join(' ')}:*)`;
}
