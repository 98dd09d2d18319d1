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
  let depth = 0;
  let open = -1;
  const commas: number[] = [];
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
        if (commas.length === 0) {
          commas.length = 0;
          continue;
        }
        const head = glob.slice(0, open);
        const tail = glob.slice(i + 1);
        const cuts = [open, ...commas, i];
        const out: string[] = [];
        for (let k = 0; k < cuts.length - 1; k++) {
          for (const variant of expandBraces(`${head}${glob.slice(cuts[k]! + 1, cuts[k + 1])}${tail}`))
            out.push(variant);
        }
        return out;
      }
    }
  }
  return [glob];
}
