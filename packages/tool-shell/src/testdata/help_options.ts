/** How a `--help` text says an option takes its value. */
export type HelpArity = 'flag' | 'required' | 'optional';

/**
 * The options a GNU-style `--help` text lists, with their arity: `--lines=NUM` takes a value,
 * `--width[=N]` an optional one, `--quiet` none; a short option shares the arity of the long one
 * written beside it (`-n, --lines=NUM`).
 *
 * @param text The help text.
 * @returns Each option and its arity.
 *
 * @example
 * ```ts
 * import { parseHelp } from './help_options.ts';
 *
 * parseHelp('  -n, --lines=NUM   print NUM lines\n').get('-n'); // 'required'
 * ```
 */
export function parseHelp(text: string): Map<string, HelpArity> {
  const out = new Map<string, HelpArity>();
  for (const line of text.split('\n')) {
    if (!/^\s{1,8}-/.test(line)) continue;
    // The option part ends at two spaces (the description starts there).
    const head = line.trim().split(/\s{2,}/)[0]!;
    const items = head.split(/,\s*/);
    let shared: HelpArity | undefined;
    const shorts: string[] = [];
    for (const item of items) {
      const m = /^(--?[A-Za-z0-9][\w-]*)(.*)$/.exec(item.trim());
      if (!m) continue;
      const [, name, rest] = m as unknown as [string, string, string];
      let arity: HelpArity = 'flag';
      if (/^\[=?[^\]]*\]/.test(rest)) arity = 'optional';
      else if (/^(=|\s+[<A-Z[{(]|\s*<)/.test(rest) || (/^[A-Z]/.test(rest) && rest.length > 0)) arity = 'required';
      if (name.startsWith('--')) {
        // Listed once bare and once with `=VALUE` (du --time): the value is optional.
        const before = out.get(name);
        out.set(name, before !== undefined && before !== arity ? 'optional' : arity);
        shared ??= arity;
      } else {
        if (arity === 'flag') shorts.push(name);
        else out.set(name, arity);
      }
    }
    for (const s of shorts) out.set(s, out.get(s) ?? shared ?? 'flag');
    // `-NUM` style entries are not options of a table.
  }
  return out;
}
