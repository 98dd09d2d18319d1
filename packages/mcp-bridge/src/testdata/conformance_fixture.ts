// The fixtures the MCP conformance suite's server scenarios call (test_image_content,
// test://static-text, test_simple_prompt, …), as what a Toolshed session offers: a family of
// tools (notices through the family's emit, progress through onProgress, the client's user and
// model through the askUser and modelClient services), a resource source and a prompt source.
// Served by scripts/conformance_server.ts:
//   node --conditions=@toolshed/source --import tsx conformance_fixture.ts <cwd>
// prints "serving the conformance fixtures at URL" on stderr.
import {
  askUserKey,
  buildTool,
  createSession,
  defineFamily,
  modelClientKey,
  type Family,
  type FamilySetupApi,
  type ToolContext,
} from '@toolshed/core';
import { z } from 'zod';
import {
  serveSession,
  sessionResults,
  workingFiles,
  type ServePromptSource,
  type ServeResourceSource,
} from '../mod.ts';

// A 1x1 red PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const image = {
  type: 'image' as const,
  source: { type: 'base64' as const, media_type: 'image/png' as const, data: PNG },
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function ask(ctx: ToolContext) {
  const askUser = ctx.services.get(askUserKey);
  if (!askUser) throw new Error('This session has no askUser service');
  return askUser;
}

function conformanceFamily(): Family {
  let emit: FamilySetupApi['emit'] | undefined;
  const tool = buildTool;
  const none = z.object({}).strict();
  return defineFamily({
    name: 'conformance',
    version: '0.0.0',
    setup: (api) => void (emit = api.emit),
    tools: [
      tool({
        name: 'test_simple_text',
        description: 'Returns a simple text.',
        inputSchema: none,
        isReadOnly: () => true,
        call: async () => ({ data: 'This is a simple text response for testing.' }),
      }),
      tool({
        name: 'test_image_content',
        description: 'Returns an image.',
        inputSchema: none,
        isReadOnly: () => true,
        call: async () => ({ data: PNG }),
        mapResult: () => [image],
      }),
      tool({
        name: 'test_embedded_resource',
        description: 'Returns a document (an embedded resource over MCP).',
        inputSchema: none,
        isReadOnly: () => true,
        call: async () => ({ data: 'This is an embedded resource content.' }),
        mapResult: (text) => [
          {
            type: 'document',
            title: 'embedded-resource',
            source: { type: 'text', media_type: 'text/plain', data: text },
          },
        ],
      }),
      tool({
        name: 'test_multiple_content_types',
        description: 'Returns text, an image and a document.',
        inputSchema: none,
        isReadOnly: () => true,
        call: async () => ({ data: '{"test":"data","value":123}' }),
        mapResult: (json) => [
          { type: 'text', text: 'Multiple content types test:' },
          image,
          {
            type: 'document',
            title: 'mixed-content-resource',
            source: { type: 'text', media_type: 'text/plain', data: json },
          },
        ],
      }),
      tool({
        name: 'test_error_handling',
        description: 'Always fails.',
        inputSchema: none,
        isReadOnly: () => true,
        call: async () => {
          throw new Error('This tool intentionally returns an error for testing');
        },
      }),
      tool({
        name: 'test_tool_with_logging',
        description: 'Raises three session notices, 50 ms apart.',
        inputSchema: none,
        isReadOnly: () => true,
        async call() {
          for (const [i, message] of [
            'Tool execution started',
            'Tool processing data',
            'Tool execution completed',
          ].entries()) {
            if (i > 0) await sleep(50);
            emit?.({ type: 'notice', level: 'info', message });
          }
          return { data: 'Logging test completed' };
        },
      }),
      tool({
        name: 'test_tool_with_progress',
        description: 'Reports progress 0, 50 and 100 of 100.',
        inputSchema: none,
        isReadOnly: () => true,
        async call(_input, _ctx, { onProgress }) {
          for (const progress of [0, 50, 100]) {
            if (progress > 0) await sleep(50);
            onProgress({ progress, total: 100 });
          }
          return { data: 'Progress test completed' };
        },
      }),
      tool({
        name: 'test_sampling',
        description: "Asks the client's model.",
        inputSchema: z.object({ prompt: z.string() }).strict(),
        isReadOnly: () => true,
        async call({ prompt }, ctx) {
          const model = ctx.services.get(modelClientKey);
          if (!model) throw new Error('This session has no model client');
          return { data: `LLM response: ${await model.complete({ prompt, maxTokens: 100, signal: ctx.signal })}` };
        },
      }),
      tool({
        name: 'test_elicitation',
        description: "Asks the client's user for a name and an email.",
        inputSchema: z.object({ message: z.string() }).strict(),
        isReadOnly: () => true,
        async call({ message }, ctx) {
          const answer = await ask(ctx).ask({
            source: 'test_elicitation',
            message,
            schema: {
              type: 'object',
              properties: {
                username: { type: 'string', description: "User's response" },
                email: { type: 'string', description: "User's email address" },
              },
              required: ['username', 'email'],
            },
            signal: ctx.signal,
          });
          return { data: `User response: ${JSON.stringify(answer)}` };
        },
      }),
      tool({
        name: 'test_elicitation_sep1034_defaults',
        description: 'Asks with a default for every primitive type.',
        inputSchema: none,
        isReadOnly: () => true,
        async call(_input, ctx) {
          const answer = await ask(ctx).ask({
            source: 'test_elicitation_sep1034_defaults',
            message: 'Please review and update the form fields with defaults',
            schema: {
              type: 'object',
              properties: {
                name: { type: 'string', description: 'User name', default: 'John Doe' },
                age: { type: 'integer', description: 'User age', default: 30 },
                score: { type: 'number', description: 'User score', default: 95.5 },
                status: {
                  type: 'string',
                  description: 'User status',
                  enum: ['active', 'inactive', 'pending'],
                  default: 'active',
                },
                verified: { type: 'boolean', description: 'Verification status', default: true },
              },
              required: [],
            },
            signal: ctx.signal,
          });
          return {
            data: `Elicitation completed: action=${answer.action}, content=${JSON.stringify('content' in answer ? answer.content : {})}`,
          };
        },
      }),
      tool({
        name: 'test_elicitation_sep1330_enums',
        description: 'Asks with every kind of enum.',
        inputSchema: none,
        isReadOnly: () => true,
        async call(_input, ctx) {
          const answer = await ask(ctx).ask({
            source: 'test_elicitation_sep1330_enums',
            message: 'Please select options from the enum fields',
            schema: {
              type: 'object',
              properties: {
                untitledSingle: {
                  type: 'string',
                  description: 'Untitled single',
                  enum: ['option1', 'option2', 'option3'],
                },
                titledSingle: {
                  type: 'string',
                  description: 'Titled single',
                  oneOf: [
                    { const: 'value1', title: 'First Option' },
                    { const: 'value2', title: 'Second Option' },
                    { const: 'value3', title: 'Third Option' },
                  ],
                },
                legacyEnum: {
                  type: 'string',
                  description: 'Legacy titled',
                  enum: ['opt1', 'opt2', 'opt3'],
                  enumNames: ['Option One', 'Option Two', 'Option Three'],
                },
                untitledMulti: {
                  type: 'array',
                  description: 'Untitled multi',
                  items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
                },
                titledMulti: {
                  type: 'array',
                  description: 'Titled multi',
                  items: {
                    anyOf: [
                      { const: 'value1', title: 'First Choice' },
                      { const: 'value2', title: 'Second Choice' },
                      { const: 'value3', title: 'Third Choice' },
                    ],
                  },
                },
              },
              required: [],
            },
            signal: ctx.signal,
          });
          return {
            data: `Elicitation completed: action=${answer.action}, content=${JSON.stringify('content' in answer ? answer.content : {})}`,
          };
        },
      }),
    ],
  });
}

const fixtureResources: ServeResourceSource = {
  list: () => [
    { uri: 'test://static-text', name: 'static-text', description: 'A static text resource', mimeType: 'text/plain' },
    {
      uri: 'test://static-binary',
      name: 'static-binary',
      description: 'A static binary resource',
      mimeType: 'image/png',
    },
    {
      uri: 'test://watched-resource',
      name: 'watched-resource',
      description: 'A resource to subscribe to',
      mimeType: 'text/plain',
    },
  ],
  templates: () => [
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'template',
      description: 'Data by id',
      mimeType: 'application/json',
    },
  ],
  read(uri) {
    if (uri === 'test://static-text')
      return [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }];
    if (uri === 'test://static-binary') return [{ uri, mimeType: 'image/png', blob: PNG }];
    if (uri === 'test://watched-resource') return [{ uri, mimeType: 'text/plain', text: 'Watched resource content' }];
    const m = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
    if (m) return [{ uri, mimeType: 'application/json', text: JSON.stringify({ id: m[1], templateTest: true }) }];
    return undefined;
  },
  complete: (template, argument, value) =>
    template === 'test://template/{id}/data' && argument === 'id'
      ? ['1', '123', '42'].filter((v) => v.startsWith(value))
      : undefined,
  watch: (uri) => (uri === 'test://watched-resource' ? () => {} : undefined),
};

const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });
const fixturePrompts: ServePromptSource = {
  list: () => [
    { name: 'test_simple_prompt', description: 'A simple prompt without arguments' },
    {
      name: 'test_prompt_with_arguments',
      description: 'A prompt with arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
    },
    {
      name: 'test_prompt_with_embedded_resource',
      description: 'A prompt with an embedded resource',
      arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    },
    { name: 'test_prompt_with_image', description: 'A prompt with an image' },
  ],
  get(name, args) {
    if (name === 'test_simple_prompt') return { messages: [text('This is a simple prompt for testing.')] };
    if (name === 'test_prompt_with_arguments') {
      for (const a of ['arg1', 'arg2']) if (!args[a]) throw new Error(`Prompt ${name} needs the argument "${a}"`);
      return { messages: [text(`Prompt with arguments: arg1='${args['arg1']}', arg2='${args['arg2']}'`)] };
    }
    if (name === 'test_prompt_with_embedded_resource') {
      const uri = args['resourceUri'] ?? 'test://example-resource';
      return {
        messages: [
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: { uri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
            },
          },
          text('Please process the embedded resource above.'),
        ],
      };
    }
    if (name === 'test_prompt_with_image')
      return {
        messages: [
          { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
          text('Please analyze the image above.'),
        ],
      };
    return undefined;
  },
  complete: (name, argument, value) =>
    name === 'test_prompt_with_arguments' && argument === 'arg1'
      ? ['testValue1', 'test', 'other'].filter((v) => v.startsWith(value))
      : [],
};

const cwd = process.argv[2] ?? process.cwd();
const served = await serveSession(
  (client) =>
    createSession({
      cwd,
      families: [conformanceFamily()],
      services: [
        [askUserKey, client.askUser],
        [modelClientKey, client.modelClient],
      ],
    }),
  {
    http: { port: 0, noAuth: true },
    resources: (s) => [fixtureResources, sessionResults(s), workingFiles(s)],
    prompts: () => fixturePrompts,
    name: 'toolshed-conformance-fixture',
  },
);
process.stderr.write(`toolshed: serving the conformance fixtures at ${served.url}\n`);
process.once('SIGTERM', () => void served.close().then(() => process.exit(0)));
await served.closed;
