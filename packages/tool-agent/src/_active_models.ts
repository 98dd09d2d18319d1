import type { ModelAdapter } from './model_adapter.ts';

/**
 * The model each running `runAgent` drives, by session id: the Agent tool's default for a
 * sub-agent ("the parent's model") when the family was given none.
 */
export const activeModels: Map<string, ModelAdapter> = new Map();
