import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { anthropicModel, openaiChatModel, openaiResponsesModel, type ModelAdapter } from '@toolshed/tool-agent';
import type { CommonArgs } from './args.ts';
import { UsageError } from './usage_error.ts';

/** The providers `--provider` names. */
export const CHAT_PROVIDERS = ['anthropic', 'openai', 'openai-responses'] as const;

/** The message when no model is configured: the variables to set. */
export const NO_MODEL_MESSAGE =
  'toolshed chat needs a model. Set ANTHROPIC_API_KEY for Anthropic, or OPENAI_API_KEY for OpenAI; for an ' +
  'OpenAI-compatible server (llama.cpp, Ollama, vLLM) set OPENAI_BASE_URL, for example ' +
  'OPENAI_BASE_URL=http://127.0.0.1:8080/v1 (and OPENAI_API_KEY if it wants one). Pick the model with --model.';

/**
 * The model of `toolshed chat`, from `--provider`, `--model` and the environment: Anthropic when
 * `ANTHROPIC_API_KEY` is set (and `ANTHROPIC_BASE_URL` honoured), else OpenAI Chat Completions
 * when `OPENAI_API_KEY` or `OPENAI_BASE_URL` is set.
 *
 * @param args The parsed flags.
 * @param env The environment.
 * @returns The adapter.
 * @throws {UsageError} Exit 2: no key for the provider, an unknown provider.
 *
 * @example
 * ```ts
 * import type { CommonArgs } from '@toolshed/cli';
 * import { chatModel } from './_chat_model.ts';
 * declare const args: CommonArgs;
 *
 * const model = chatModel(args, process.env);
 * ```
 */
export function chatModel(
  args: Pick<CommonArgs, 'model' | 'provider'>,
  env: Record<string, string | undefined>,
): ModelAdapter {
  const anthropicKey = env['ANTHROPIC_API_KEY'] || undefined;
  const openaiKey = env['OPENAI_API_KEY'] || undefined;
  const openaiBase = env['OPENAI_BASE_URL'] || undefined;
  if (args.provider !== undefined && !(CHAT_PROVIDERS as readonly string[]).includes(args.provider)) {
    throw new UsageError(
      `Unknown provider "${args.provider}" for --provider; use one of ${CHAT_PROVIDERS.join(', ')}.`,
      { command: 'chat' },
    );
  }
  const provider = args.provider ?? (anthropicKey ? 'anthropic' : openaiKey || openaiBase ? 'openai' : undefined);
  if (provider === undefined) throw new UsageError(NO_MODEL_MESSAGE, { showUsage: false });
  if (provider === 'anthropic') {
    if (!anthropicKey)
      throw new UsageError(`--provider anthropic needs ANTHROPIC_API_KEY in the environment. ${NO_MODEL_MESSAGE}`, {
        showUsage: false,
      });
    const client = new Anthropic({
      apiKey: anthropicKey,
      ...(env['ANTHROPIC_BASE_URL'] ? { baseURL: env['ANTHROPIC_BASE_URL'] } : {}),
    });
    return anthropicModel({ client, model: args.model ?? env['ANTHROPIC_MODEL'] ?? 'claude-sonnet-5-5' });
  }
  if (!openaiKey && !openaiBase)
    throw new UsageError(
      `--provider ${provider} needs OPENAI_API_KEY or OPENAI_BASE_URL in the environment. ${NO_MODEL_MESSAGE}`,
      { showUsage: false },
    );
  // A local server usually wants no key, but the SDK refuses to start without one.
  const client = new OpenAI({ apiKey: openaiKey ?? 'not-needed', ...(openaiBase ? { baseURL: openaiBase } : {}) });
  const model = args.model ?? env['OPENAI_MODEL'] ?? (openaiBase ? 'local' : 'gpt-4.1');
  return provider === 'openai-responses' ? openaiResponsesModel({ client, model }) : openaiChatModel({ client, model });
}
