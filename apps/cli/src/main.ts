// The process entry of `toolshed` (bin/toolshed.js imports the built copy): real streams in,
// exit code out. Everything testable lives in run_cli.ts.
import { runCli } from './run_cli.ts';
import { terminalSpinner } from './_spinner.ts';
import { printableMessage } from './_printable.ts';

// The binary is a bundle (scripts/bundle_cli.ts): with TOOLSHED_DEBUG=1 a stack trace names the
// TypeScript files and lines through its source maps (off otherwise: they cost start-up time).
if (process.env['TOOLSHED_DEBUG'] === '1') process.setSourceMapsEnabled(true);

// `toolshed tools | head` closes stdout early; that is the reader's choice, not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
});

// A spinner only where both streams are terminals (and NO_COLOR is unset); the output goes
// through it so that a line and a spinner frame never share the screen's line.
const { stdout, stderr, spinner } = terminalSpinner({ stdout: process.stdout, stderr: process.stderr });
// An exit in the middle of a call (a second Ctrl-C) leaves no frame behind for the shell's prompt.
if (spinner) process.on('exit', () => spinner.stop());

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
  stderr.write('\ntoolshed: interrupted; cancelling the running tools (press Ctrl-C again to quit now)\n');
  interrupt.abort();
});

try {
  const result = await runCli(process.argv.slice(2), {
    stdout,
    stderr,
    stdin: process.stdin,
    ...(spinner ? { spinner } : {}),
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
  spinner?.stop();
  stderr.write(`toolshed: ${printableMessage(e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e))}\n`);
  if (process.env['TOOLSHED_DEBUG'] === '1' && e instanceof Error) stderr.write(`${e.stack}\n`);
  process.exitCode = 1;
}
