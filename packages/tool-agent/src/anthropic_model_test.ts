import Anthropic from '@anthropic-ai/sdk';
import { anthropicModel } from './anthropic_model.ts';
import { adapterSuite } from './_test_adapter_suite.ts';

adapterSuite('anthropic', (server, { maxRetries, idleTimeoutMs }) =>
  anthropicModel({
    client: new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries }),
    model: 'claude-test',
    ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
  }),
);
