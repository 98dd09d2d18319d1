import OpenAI from 'openai';
import { openaiResponsesModel } from './openai_responses_model.ts';
import { adapterSuite } from './_test_adapter_suite.ts';

adapterSuite('openai-responses', (server, { maxRetries, idleTimeoutMs }) =>
  openaiResponsesModel({
    client: new OpenAI({ apiKey: 'test-key', baseURL: server.openaiBaseURL, maxRetries }),
    model: 'gpt-test',
    ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
  }),
);
