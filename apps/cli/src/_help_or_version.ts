import { parseArgs } from 'node:util';
import { OPTIONS } from './_cli_options.ts';
import { COMMANDS } from './help.ts';

/** What `--help`, `help [command]` and `--version` ask for. */
export type HelpOrVersion = { kind: 'help'; command: string | undefined } | { kind: 'version' };

/**
 * Recognises a command line that asks only for help or the version, without loading core or a
 * family (so `toolshed --help` starts as fast as Node does). Anything else, including every
 * mistake, is left to `parseCliArgs`, which calls this first and so always agrees with it.
 *
 * @param argv The arguments after `toolshed`.
 * @returns Help (for the whole CLI or one command) or the version; undefined for everything else.
 *
 * @example
 * ```ts
 * import { helpOrVersion } from './_help_or_version.ts';
 *
 * helpOrVersion(['call', '--help']); // { kind: 'help', command: 'call' }
 * helpOrVersion(['call', 'Read', '{}']); // undefined
 * ```
 */
export function helpOrVersion(argv: readonly string[]): HelpOrVersion | undefined {
  const { tokens } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const positionals = tokens.flatMap((t) => (t.kind === 'positional' ? [t.value] : []));
  const has = (name: string) => tokens.some((t) => t.kind === 'option' && t.name === name);
  const isCommand = (word: string | undefined) => word !== undefined && COMMANDS.some((c) => c.name === word);
  const word = positionals[0];
  // `toolshed -p …` is chat's; `rules` and `bench` parse their own flags (and their own --help).
  if (has('print') || word === 'rules' || word === 'bench') return undefined;
  if (word === undefined) {
    if (has('version')) return { kind: 'version' };
    return has('help') ? { kind: 'help', command: undefined } : undefined;
  }
  if (word === 'help') {
    const topic = positionals[1];
    if (topic === undefined) return { kind: 'help', command: undefined };
    return isCommand(topic) ? { kind: 'help', command: topic } : undefined;
  }
  if (!isCommand(word)) return undefined;
  if (has('help')) return { kind: 'help', command: word };
  return has('version') ? { kind: 'version' } : undefined;
}
