// The process entry of `toolshed` (bin/toolshed.js imports the built copy): real streams in,
// exit code out. Everything testable lives in run_cli.ts.
import { runCli } from './run_cli.ts';

// `toolshed tools | head` closes stdout early; that is the reader's choice, not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
});

// The first Ctrl-C cancels the running calls, so the session still closes (background shells are
// killed, servers stopped); a second one quits at once.
const interrupt = new AbortController();
// A command that handles Ctrl-C itself (chat: abort the turn, then exit) takes it over.
const interruptListeners = new Set<() => void>();
process.on('SIGINT', () => {
  if (interruptListeners.size) {
    for (const listener of interruptListeners) listener();
    return;
  }
  if (interrupt.signal.aborted) process.exit(130);
  process.stderr.write('\ntoolshed: interrupted; cancelling the running tools (press Ctrl-C again to quit now)\n');
  interrupt.abort();
});

try {
  const result = await runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    signal: interrupt.signal,
    onInterrupt: (listener) => {
      interruptListeners.add(listener);
      return () => void interruptListeners.delete(listener);
    },
    // Prompts need a person on both ends: answers from stdin, questions on stderr.
    isTTY: Boolean(process.stdin.isTTY && process.stderr.isTTY),
  });
  const code = interrupt.signal.aborted ? 130 : result;
  process.exitCode = code;
  // A family that leaves a handle open (a server, a timer) must not keep the CLI alive forever.
  setTimeout(() => process.exit(code), 2_000).unref();
} catch (e) {
  // runCli does not throw; this is the last guard, kept to one line like every other error.
  process.stderr.write(`toolshed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
  if (process.env['TOOLSHED_DEBUG'] === '1' && e instanceof Error) process.stderr.write(`${e.stack}\n`);
  process.exitCode = 1;
}
