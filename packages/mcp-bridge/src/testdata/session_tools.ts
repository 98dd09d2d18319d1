// Tools of the session that the serve tests put behind MCP: a read-only echo, a write that needs
// permission, and a slow call that reports progress and notes when it is cancelled.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildTool, type AnyTool } from '@toolshed/core';
import { z } from 'zod';

export function sessionTools(): AnyTool[] {
  return [
    buildTool({
      name: 'Echo',
      description: 'Returns the text it is given.',
      inputSchema: z.object({ text: z.string().describe('What to echo') }).strict(),
      isReadOnly: () => true,
      isConcurrencySafe: () => true,
      async call({ text }) {
        return { data: `echo: ${text}` };
      },
    }),
    buildTool({
      name: 'Touch',
      description: 'Writes a file in the working directory.',
      inputSchema: z.object({ name: z.string(), content: z.string() }).strict(),
      isDestructive: () => true,
      async call({ name, content }, ctx) {
        await writeFile(path.join(ctx.cwd, name), content);
        return { data: `wrote ${name}` };
      },
    }),
    buildTool({
      name: 'Slow',
      description: 'Waits, reporting progress every 50 ms; notes a cancellation in cancelled.txt.',
      inputSchema: z.object({ steps: z.number().int().min(1) }).strict(),
      isReadOnly: () => true,
      isConcurrencySafe: () => true,
      interruptBehavior: 'cancel',
      async call({ steps }, ctx, { onProgress, signal }) {
        for (let i = 1; i <= steps; i++) {
          if (signal.aborted) {
            await writeFile(path.join(ctx.cwd, 'cancelled.txt'), `cancelled at step ${i}`);
            throw new Error('cancelled');
          }
          onProgress({ message: `step ${i} of ${steps}`, progress: i, total: steps });
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return { data: `done after ${steps} steps` };
      },
    }),
  ];
}
