import { closestNames } from './closest_names.ts';

/**
 * What the model (and `session.explain`, and `toolshed check`) is told about a tool name the
 * pool does not have: the name, and the closest names it does have, when any is close.
 *
 * @param name The name asked for.
 * @param names The pool's names (and aliases).
 * @returns `No such tool available: Raed. Did you mean "Read"?`
 *
 * @example
 * ```ts
 * import { noSuchToolText } from './_no_such_tool.ts';
 *
 * noSuchToolText('Raed', ['Read', 'Write']); // 'No such tool available: Raed. Did you mean "Read"?'
 * ```
 */
export function noSuchToolText(name: string, names: Iterable<string>): string {
  const near = closestNames(name, names);
  return `No such tool available: ${name}.${near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : ''}`;
}
