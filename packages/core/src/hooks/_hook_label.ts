import type { HookDefinition } from './types.ts';

const MAX_LABEL = 80;

/**
 * The label errors and outcomes use for a hook: the command (cut to 80 characters), `POST url`
 * for an http hook, or the function hook's name.
 *
 * @param hook Any hook definition.
 * @returns A short, human-readable label.
 *
 * @example
 * ```ts
 * import { hookLabel } from './_hook_label.ts';
 *
 * hookLabel({ type: 'command', command: './check.sh' }); // './check.sh'
 * ```
 */
export function hookLabel(hook: HookDefinition): string {
  if (typeof hook === 'function') return hook.name || 'anonymous function hook';
  if (hook.type === 'function') return hook.name ?? (hook.fn.name || 'anonymous function hook');
  if (hook.type === 'http') return `POST ${String(hook.url ?? '')}`.slice(0, MAX_LABEL);
  // A malformed hook from settings must still get a label for its error.
  if (hook.type !== 'command')
    return `hook of type ${JSON.stringify((hook as { type?: unknown }).type) ?? 'undefined'}`;
  const command = String(hook.command ?? '')
    .trim()
    .replace(/\s+/g, ' ');
  return command.length > MAX_LABEL ? `${command.slice(0, MAX_LABEL - 1)}…` : command;
}
