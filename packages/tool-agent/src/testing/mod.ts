/**
 * `@toolshed/tool-agent/testing`: a loopback fake model server that speaks the Anthropic
 * Messages API and OpenAI Chat Completions / Responses (whole and streamed), for testing agent
 * loops with the real SDKs and no network.
 *
 * ```ts
 * import { startFakeModelServer } from '@toolshed/tool-agent/testing';
 * import Anthropic from '@anthropic-ai/sdk';
 *
 * const server = await startFakeModelServer([{ content: [{ type: 'text', text: 'Done.' }] }]);
 * const client = new Anthropic({ apiKey: 'test', baseURL: server.url });
 * await server.close();
 * ```
 *
 * @module
 */
export { startFakeModelServer } from './fake_model_server.ts';
export type { FakeApi, FakeBlock, FakeModelServer, FakeReply, FakeRequest, FakeScript } from './fake_model_server.ts';
