/**
 * Expands `{a,b}` alternatives (nested too) into separate globs, for matchers that lack them
 * (gitignore-style matching has none).
 *
 * @param glob The pattern.
 * @returns The patterns, in order; the pattern itself when it has no alternatives.
 *
 * @example
 * ```ts
 * import { expandBraces } from './_expand_braces.ts';
 *
 * expandBraces('*.{ts,tsx}'); // ['*.ts', '*.tsx']
 * ```
 */
export function expandBraces(glob: string): string[] {
  const group = firstGroup(glob);
  if (group === undefined) return [glob];
  const head = glob.slice(0, group.cuts[0]);
  const tail = glob.slice(group.end + 1);
  const out: string[] = [];
  for (let k = 0; k < group.cuts.length - 1; k++) {
    for (const variant of expandBraces(`${head}${glob.slice(group.cuts[k]! + 1, group.cuts[k + 1])}${tail}`))
      out.push(variant);
  }
  return out;
}

/** Globs one glob may stand for in {@linkcode expandBraces}, at most, for the JS engine. */
export const MAX_BRACE_VARIANTS = 4096;

/**
 * How many globs {@linkcode expandBraces} would make of `glob`, counted without making them, in
 * steps that grow with the glob's length (its groups multiply: `{a,b}` thirty times stands for
 * 2^30 globs). Counts past `cap` stop at `cap + 1`.
 *
 * @param glob The pattern.
 * @param cap Where to stop counting. @default Infinity
 * @returns The count.
 *
 * @example
 * ```ts
 * import { countBraceVariants } from './_expand_braces.ts';
 *
 * countBraceVariants('{a,b}{c,d,e}/*.{ts,tsx}'); // 12
 * ```
 */
export function countBraceVariants(glob: string, cap = Number.POSITIVE_INFINITY): number {
  let total = 1;
  // The groups one after another multiply; the alternatives of one group (each counted the same way) add.
  for (let rest = glob, group = firstGroup(rest); group !== undefined; group = firstGroup(rest)) {
    let alternatives = 0;
    for (let k = 0; k < group.cuts.length - 1 && alternatives <= cap; k++) {
      alternatives += countBraceVariants(rest.slice(group.cuts[k]! + 1, group.cuts[k + 1]), cap);
    }
    total = Math.min(total * alternatives, cap + 1);
    if (total > cap) return total;
    rest = rest.slice(group.end + 1);
  }
  return total;
}

/**
 * Refuses, for the JS engine, a glob that stands for more than {@linkcode MAX_BRACE_VARIANTS}
 * globs, saying how many and what to write instead.
 *
 * @param glob The pattern.
 * @throws {Error} When it stands for too many.
 *
 * @example
 * ```ts
 * import { checkBraceVariants } from './_expand_braces.ts';
 *
 * checkBraceVariants('*.{ts,tsx}'); // fine
 * ```
 */
export function checkBraceVariants(glob: string): void {
  const count = countBraceVariants(glob, 2 ** 40);
  if (count <= MAX_BRACE_VARIANTS) return;
  throw new Error(
    `The glob "${glob}" stands for ${count > 2 ** 40 ? 'over 2^40' : count} globs (its {…} groups multiply), more than the ${MAX_BRACE_VARIANTS} the JS engine tries one by one. Write fewer {…} groups or a wider glob (such as *.ts), or install ripgrep, which matches such a glob as it is.`,
  );
}

/** The first `{…}` group with a comma at its own level: its `{`, commas and `}` positions. */
function firstGroup(glob: string): { cuts: number[]; end: number } | undefined {
  let depth = 0;
  let open = -1;
  let commas: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') {
      if (depth === 0) open = i;
      depth++;
    } else if (c === ',' && depth === 1) {
      commas.push(i);
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0) {
        if (commas.length > 0) return { cuts: [open, ...commas, i], end: i };
        commas = [];
      }
    }
  }
  return undefined;
}
