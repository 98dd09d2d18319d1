import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { expect, test } from 'vitest';
import { anthropicModel } from './anthropic_model.ts';
import { openaiChatModel } from './openai_chat_model.ts';
import { modelFor } from './model_for.ts';

const anthropic = anthropicModel({
  client: new Anthropic({ apiKey: 'k', baseURL: 'http://127.0.0.1:9' }),
  model: 'claude-sonnet-5-5',
});
const local = openaiChatModel({ client: new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1' }), model: 'qwen' });

test('modelFor maps aliases on Anthropic, ids anywhere, and inherit or nothing to the parent', () => {
  expect(modelFor(anthropic, 'haiku').model).toBe('claude-haiku-5-5');
  expect(modelFor(anthropic, 'opus').provider).toBe('anthropic');
  expect(modelFor(anthropic, 'sonnet')).toBe(anthropic);
  expect(modelFor(anthropic, 'inherit')).toBe(anthropic);
  expect(modelFor(anthropic, undefined)).toBe(anthropic);
  expect(modelFor(anthropic, 'claude-opus-5').model).toBe('claude-opus-5');
  // A compatible server has no "haiku": the parent's model serves.
  expect(modelFor(local, 'haiku')).toBe(local);
  expect(modelFor(local, 'llama3').model).toBe('llama3');
});
