import { createInterface, type Interface } from 'node:readline';
import type { CliIo } from './cli_io.ts';

/** Asks one question at a time on stderr and reads the answers from stdin, line by line. */
export interface Prompter {
  /** Resolves to the answer line, or undefined when stdin has ended. */
  ask(question: string): Promise<string | undefined>;
  close(): void;
}

/**
 * A prompter over the CLI's streams. One readline interface serves every question (a second
 * interface on the same stream would lose what the first had buffered), and questions are
 * queued so that calls in a parallel batch never prompt over each other. The spinner, if any,
 * is paused from the question to its answer.
 *
 * @param io The CLI's streams.
 * @returns The prompter; `close` it when the command ends.
 */
export function createPrompter(io: Pick<CliIo, 'stdin' | 'stderr' | 'spinner'>): Prompter {
  let rl: Interface | undefined;
  let ended = false;
  const buffered: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let queue: Promise<unknown> = Promise.resolve();

  const open = () => {
    if (rl || ended) return;
    rl = createInterface({ input: io.stdin, terminal: false });
    rl.on('line', (line) => {
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else buffered.push(line);
    });
    rl.on('close', () => {
      ended = true;
      for (const waiter of waiting.splice(0)) waiter(undefined);
    });
  };
  const nextLine = (): Promise<string | undefined> => {
    if (buffered.length) return Promise.resolve(buffered.shift());
    if (ended) return Promise.resolve(undefined);
    open();
    return new Promise((resolve) => waiting.push(resolve));
  };

  return {
    ask(question) {
      const asking = () => {
        io.stderr.write(question);
        return nextLine();
      };
      const answer = queue.then(() => (io.spinner ? io.spinner.pause(asking) : asking()));
      queue = answer.catch(() => undefined);
      return answer;
    },
    close() {
      ended = true;
      rl?.close();
      for (const waiter of waiting.splice(0)) waiter(undefined);
    },
  };
}
