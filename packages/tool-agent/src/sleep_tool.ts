import { buildTool, ToolshedError } from '@toolshed/core';
import { z } from 'zod';

declare module '@toolshed/core' {
  interface ToolshedErrorCodes {
    /** Sleep was cut short (the call was aborted). */
    sleep_interrupted: true;
  }
}

/** The longest a Sleep call may wait, in seconds. */
export const MAX_SLEEP_SECONDS = 600;

/** Input of {@linkcode sleepTool}. */
export const sleepInput = z.strictObject({
  duration: z
    .number()
    .positive()
    .max(MAX_SLEEP_SECONDS)
    .describe(`How long to wait, in seconds (at most ${MAX_SLEEP_SECONDS})`),
});

/**
 * Sleep: waits `duration` seconds without holding a shell process, and ends early when the
 * call is aborted. Read-only and concurrency-safe, so it can run beside other calls.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { sleepTool } from '@toolshed/tool-agent';
 * declare const cwd: string;
 *
 * const session = await createSession({ cwd, tools: [sleepTool] });
 * await session.run([{ type: 'tool_use', id: 't1', name: 'Sleep', input: { duration: 2 } }]);
 * ```
 */
export const sleepTool = buildTool({
  name: 'Sleep',
  searchHint: 'wait pause for a while',
  description: `Waits for a number of seconds (at most ${MAX_SLEEP_SECONDS}). Use it when you are waiting for something (a build, a server, a background task) and have nothing else to do; prefer it to Bash "sleep", which holds a shell. The user can interrupt it.`,
  inputSchema: sleepInput,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  interruptBehavior: 'cancel',
  async call({ duration }, _ctx, { signal }) {
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(abortError(started));
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, duration * 1000);
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortError(started));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
    return { data: `Slept for ${duration} s.` };
  },
});

function abortError(started: number): ToolshedError {
  return new ToolshedError(
    'sleep_interrupted',
    `Sleep was interrupted after ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
}
