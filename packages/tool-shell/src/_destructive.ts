import { isBashParserLoaded } from './bash_parser.ts';
import { splitCommand } from './command_matcher.ts';

const DESTRUCTIVE =
  /(^|[\s;&|(])(rm|rmdir|shred|dd|mkfs(\.\w+)?|truncate|wipefs)\s|git\s+(reset\s+--hard|clean\s+-[a-z]*f|push\s+(-f|--force)|branch\s+-D|checkout\s+--\s)|>\s*\/dev\/sd/;

/**
 * Whether a command deletes or overwrites in a way that cannot be undone (`rm`, `dd`,
 * `git reset --hard`, …), through quotes, paths and wrappers (`\rm x`, `/bin/rm x`,
 * `timeout 5 rm x`, `sh -c 'rm x'`) once the parser is loaded.
 *
 * @param command The command string.
 * @returns True for a destructive command.
 *
 * @example
 * ```ts
 * import { isDestructiveCommand } from './_destructive.ts';
 *
 * isDestructiveCommand('timeout 5 rm -rf build'); // true
 * ```
 */
export function isDestructiveCommand(command: string): boolean {
  if (DESTRUCTIVE.test(` ${command} `)) return true;
  if (!isBashParserLoaded()) return false;
  return splitCommand(command).parts.some((p) => p.denyForms.some((form) => DESTRUCTIVE.test(` ${form} `)));
}
