import OpenAI from 'openai';
import { openaiChatModel } from './openai_chat_model.ts';
import { adapterSuite } from './_test_adapter_suite.ts';

adapterSuite('openai-chat', (server, { maxRetries, idleTimeoutMs }) =>
  openaiChatModel({
    client: new OpenAI({ apiKey: 'test-key', baseURL: server.openaiBaseURL, maxRetries }),
    model: 'gpt-test',
    ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
  }),
);
