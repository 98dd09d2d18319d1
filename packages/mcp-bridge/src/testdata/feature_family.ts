// A family for the serve feature tests: Note raises a session notice through the family's emit
// (as the MCP family does for a server's log), Big returns more than its result budget (so the
// session saves it as a result), Read declares its path like tool-fs's Read, and a prompt source with arguments and completion.
import { readFile } from 'node:fs/promises';
import { askUserKey, buildTool, defineFamily, modelClientKey, type Family, type FamilySetupApi } from '@toolshed/core';
import { z } from 'zod';
import type { ServePromptSource } from '../serve_prompts.ts';

export function featureFamily(): Family {
  let emit: FamilySetupApi['emit'] | undefined;
  return defineFamily({
    name: 'features',
    version: '0.0.0',
    setup: (api) => {
      emit = api.emit;
      api.emit({ type: 'notice', level: 'info', message: 'features family ready' });
    },
    tools: [
      buildTool({
        name: 'Note',
        description: 'Raises a session notice at the level given.',
        inputSchema: z.object({ level: z.enum(['info', 'warn', 'error']), message: z.string() }).strict(),
        isReadOnly: () => true,
        async call({ level, message }) {
          emit?.({ type: 'notice', level, message });
          return { data: `noted ${message}` };
        },
      }),
      buildTool({
        name: 'Read',
        description: 'Reads a file (declares the path, so the core path guard and Read rules decide).',
        inputSchema: z.object({ file_path: z.string() }).strict(),
        isReadOnly: () => true,
        resources: ({ file_path }) => [{ path: file_path, access: 'read' as const }],
        async call({ file_path }) {
          return { data: await readFile(file_path, 'utf8') };
        },
      }),
      buildTool({
        name: 'AskName',
        description: "Asks the session's user (askUser) for a name.",
        inputSchema: z.object({}).strict(),
        isReadOnly: () => true,
        async call(_input, ctx) {
          const askUser = ctx.services.get(askUserKey);
          if (!askUser) throw new Error('no askUser service');
          const answer = await askUser.ask({
            source: 'AskName',
            message: 'Your name?',
            schema: { type: 'object', properties: { name: { type: 'string', default: 'nobody' } } },
            signal: ctx.signal,
          });
          return { data: `answer: ${JSON.stringify(answer)}` };
        },
      }),
      buildTool({
        name: 'Summarize',
        description: "Asks the session's model (modelClient) to summarize a text.",
        inputSchema: z.object({ text: z.string() }).strict(),
        isReadOnly: () => true,
        async call({ text }, ctx) {
          const model = ctx.services.get(modelClientKey);
          if (!model) throw new Error('no model client');
          return {
            data: `summary: ${await model.complete({ system: 'Be brief.', prompt: `Summarize: ${text}`, maxTokens: 50 })}`,
          };
        },
      }),
      buildTool({
        name: 'Big',
        description: 'Returns 5000 characters, more than its 1000-character budget.',
        inputSchema: z.object({}).strict(),
        isReadOnly: () => true,
        maxResultSizeChars: 1000,
        async call() {
          return { data: 'x'.repeat(5000) };
        },
      }),
    ],
  });
}

export const greetPrompts: ServePromptSource = {
  list: () => [
    {
      name: 'greet',
      description: 'Greets someone in a language',
      arguments: [
        { name: 'who', required: true },
        { name: 'language', required: false },
      ],
    },
  ],
  get(name, args) {
    if (name !== 'greet') return undefined;
    if (!args['who']) throw new Error('Prompt greet needs the argument "who"');
    return {
      messages: [
        { role: 'user', content: { type: 'text', text: `Greet ${args['who']} in ${args['language'] ?? 'English'}` } },
      ],
    };
  },
  complete(name, argument, value) {
    if (name !== 'greet' || argument !== 'language') return [];
    return ['English', 'Esperanto', 'Estonian', 'French'].filter((l) =>
      l.toLowerCase().startsWith(value.toLowerCase()),
    );
  },
};
