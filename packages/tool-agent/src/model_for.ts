import type { ModelAdapter } from './model_adapter.ts';

/**
 * The Anthropic model ids the aliases `sonnet`, `opus` and `haiku` stand for.
 *
 * @example
 * ```ts
 * import { ANTHROPIC_MODEL_ALIASES } from '@toolshed/tool-agent';
 *
 * ANTHROPIC_MODEL_ALIASES.haiku; // 'claude-haiku-5-5'
 * ```
 */
export const ANTHROPIC_MODEL_ALIASES: Readonly<Record<string, string>> = {
  sonnet: 'claude-sonnet-5-5',
  opus: 'claude-opus-5-5',
  haiku: 'claude-haiku-5-5',
};

/**
 * The adapter for a sub-agent's `model`: `inherit` or nothing is the parent's model; `sonnet`,
 * `opus` and `haiku` are Anthropic's current models (on an Anthropic adapter; elsewhere they
 * mean the parent's model, since an OpenAI-compatible server has no such names); anything else
 * is a model id for the parent's client.
 *
 * @param parent The parent's model.
 * @param model What the agent definition or the Agent call asked for.
 * @param options `aliases`: alias → model id. @default ANTHROPIC_MODEL_ALIASES
 * @returns The adapter.
 *
 * @example
 * ```ts
 * import { anthropicModel, modelFor } from '@toolshed/tool-agent';
 * import Anthropic from '@anthropic-ai/sdk';
 *
 * const client = new Anthropic();
 * modelFor(anthropicModel({ client, model: 'claude-sonnet-4-5' }), 'haiku').model; // 'claude-haiku-5-5'
 * ```
 */
export function modelFor(
  parent: ModelAdapter,
  model: string | undefined,
  options: { aliases?: Readonly<Record<string, string>> } = {},
): ModelAdapter {
  const aliases = options.aliases ?? ANTHROPIC_MODEL_ALIASES;
  if (model === undefined || model === '' || model === 'inherit' || model === parent.model) return parent;
  const alias = aliases[model];
  if (alias !== undefined)
    return parent.provider === 'anthropic' ? (alias === parent.model ? parent : parent.withModel(alias)) : parent;
  return parent.withModel(model);
}
