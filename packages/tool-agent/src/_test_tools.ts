import { z } from 'zod';
import { buildTool } from '@toolshed/core';

/** Read-only: echoes its text (and how many times it ran). */
export const echoTool = buildTool({
  name: 'Echo',
  description: 'Echoes text',
  inputSchema: z.object({ text: z.string() }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async call({ text }) {
    return { data: `echo: ${text}` };
  },
});

/** Not read-only: "writes" a note into a list the test can see. */
export const notes: string[] = [];
export const noteTool = buildTool({
  name: 'Note',
  description: 'Writes a note',
  inputSchema: z.object({ text: z.string() }),
  async call({ text }) {
    notes.push(text);
    return { data: `noted: ${text}`, newMessages: [{ role: 'user', content: `A note was written: ${text}` }] };
  },
});

/** Waits until aborted (or 10 s). */
export const waitTool = buildTool({
  name: 'Wait',
  description: 'Waits',
  inputSchema: z.object({}),
  isReadOnly: () => true,
  interruptBehavior: 'cancel',
  async call(_input, _ctx, { signal }) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
    return { data: signal.aborted ? 'aborted' : 'waited' };
  },
});
