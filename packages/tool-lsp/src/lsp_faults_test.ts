import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { FAKE_SERVER, makeBench, realTypeScriptServer } from './_test_bench.ts';
import type { LspServerConfig } from './server_config.ts';

const fake = (mode: string, ...rest: string[]): LspServerConfig => ({
  command: process.execPath,
  args: [FAKE_SERVER, mode, ...rest],
  extensions: ['.ts'],
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const definition = { operation: 'goToDefinition', filePath: 'src/main.ts', line: 5, character: 37 };

describe('LSP when the server fails', { timeout: 120_000 }, () => {
  test('a server that never answers is one error result naming the timeout, and the session closes', async () => {
    const b = await makeBench({ family: { servers: { typescript: fake('hang') }, startTimeoutMs: 500 } });
    try {
      const { text, isError } = await b.call(definition);
      expect(isError).toBe(true);
      expect(text).toContain(
        `The typescript language server ("${process.execPath} ${FAKE_SERVER} hang") did not answer initialize within 500 ms; it was stopped and will be started again on the next call.`,
      );
      const again = await b.call(definition);
      expect(again.text).toContain('did not answer initialize within 500 ms');
    } finally {
      await b.cleanup();
    }
  });

  test('a hung server is killed with the processes it started', async () => {
    let childPidFile = '';
    const b = await makeBench({
      family: (root) => {
        childPidFile = path.join(root, 'child.pid');
        return { servers: { typescript: fake('hang-with-child', root) }, timeoutMs: 1000 };
      },
    });
    try {
      const { text } = await b.call(definition);
      expect(text).toContain('did not answer textDocument/definition within 1000 ms');
      const childPid = Number(await readFile(childPidFile, 'utf8'));
      await waitFor(() => !alive(childPid));
      expect(alive(childPid)).toBe(false);
    } finally {
      await b.cleanup();
    }
  });

  test('a server that hangs on a request is stopped: the call fails with the method, and the next call starts a new server', async () => {
    const b = await makeBench({
      family: { servers: { typescript: fake('hang-requests') }, timeoutMs: 800, startTimeoutMs: 30_000 },
    });
    try {
      const first = await b.call(definition);
      expect(first.isError).toBe(true);
      expect(first.text).toContain('did not answer textDocument/definition within 800 ms; it was stopped');
      const symbols = await b.call({ operation: 'documentSymbol', filePath: 'src/main.ts' });
      expect(symbols.text).toContain('did not answer textDocument/documentSymbol within 800 ms');
    } finally {
      await b.cleanup();
    }
  });

  test('aborting the run cancels a call that waits on the server, long before its timeout; close() ends a server that ignores shutdown', async () => {
    const b = await makeBench({ family: { servers: { typescript: fake('hang-requests') }, timeoutMs: 600_000 } });
    try {
      const controller = new AbortController();
      const running = b.session.run([{ type: 'tool_use', id: 'a1', name: 'LSP', input: definition }], {
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 1000);
      const [result] = await running;
      expect(result!.is_error).toBe(true);
      expect(String(result!.content)).toMatch(/cancel/i);
      // The server answers no shutdown either: close() gives it a moment, then kills it.
      await b.session.close();
    } finally {
      await b.cleanup();
    }
  });

  test('a server that crashes during a request is one error result with its exit and stderr; the next call restarts it', async () => {
    let marker = '';
    const b = await makeBench({
      family: (root) => {
        marker = path.join(root, 'crashed-once');
        return { servers: { typescript: fake('crash-once', root) }, timeoutMs: 10_000 };
      },
    });
    try {
      const crashed = await b.call(definition);
      expect(crashed.isError).toBe(true);
      expect(crashed.text).toContain(
        'exited with code 3 (stderr: fake server: crashing on purpose); it will be started again on the next call.',
      );
      const crashedPid = Number(await readFile(marker, 'utf8'));
      expect(alive(crashedPid)).toBe(false);
      const restarted = await b.call(definition);
      expect(restarted).toEqual({
        isError: false,
        text: 'No definition found for the symbol at src/main.ts:5:37 (the position is on "add").',
      });
    } finally {
      await b.cleanup();
    }
  });

  test('a killed server is restarted by the next call, which answers; close() stops the server', async () => {
    const real = realTypeScriptServer();
    let pidFile = '';
    const b = await makeBench({
      family: (root) => {
        pidFile = path.join(root, 'server.pid');
        return {
          servers: {
            // The real server, through a shell that writes its pid (exec keeps the pid).
            typescript: {
              ...real,
              command: '/bin/sh',
              args: ['-c', 'echo $$ > "$LSP_PID_FILE"; exec "$0" "$@"', real.command, ...(real.args ?? [])],
            },
          },
          timeoutMs: 60_000,
          env: { ...process.env, LSP_PID_FILE: pidFile },
        };
      },
    });
    try {
      expect((await b.call(definition)).text).toContain('src/math.ts:13:17:');
      const firstPid = Number(await readFile(pidFile, 'utf8'));
      process.kill(firstPid, 'SIGKILL');
      await waitFor(() => !alive(firstPid));
      const again = await b.call(definition);
      expect(again).toMatchObject({ isError: false });
      expect(again.text).toContain('src/math.ts:13:17: export function add');
      const secondPid = Number(await readFile(pidFile, 'utf8'));
      expect(secondPid).not.toBe(firstPid);
      await b.session.close();
      await waitFor(() => !alive(secondPid));
      expect(alive(secondPid)).toBe(false);
    } finally {
      await b.cleanup();
    }
  });

  test('an operation the server did not announce is refused with the capability it lacks, and the server stays up', async () => {
    const b = await makeBench({
      family: (root) => ({ servers: { typescript: fake('crash-once', root) }, timeoutMs: 10_000 }),
    });
    try {
      const hover = await b.call({ operation: 'hover', filePath: 'src/main.ts', line: 5, character: 37 });
      expect(hover.isError).toBe(true);
      expect(hover.text).toContain(
        `does not support hover (it announced no hoverProvider); use another operation, or Grep.`,
      );
      const symbols = await b.call({ operation: 'documentSymbol', filePath: 'src/main.ts' });
      expect(symbols).toEqual({ isError: false, text: 'No symbols found in src/main.ts.' });
    } finally {
      await b.cleanup();
    }
  });

  test('a server that is not installed is a clear error naming the package to install', async () => {
    const b = await makeBench({ family: { env: { PATH: '/nonexistent-toolshed-path' } } });
    try {
      const ts = await b.call(definition);
      expect(ts.isError).toBe(true);
      expect(ts.text).toContain(
        'No typescript language server: "typescript-language-server" was not found on PATH. To use LSP on these files, install it (npm install -g typescript-language-server typescript), or set lspTools({ servers: { typescript: { command } } }) to where it is.',
      );
      await writeFile(path.join(b.dir, 'app.py'), 'def f():\n    return 1\n');
      const py = await b.call({ operation: 'documentSymbol', filePath: 'app.py' });
      expect(py.text).toContain(
        'No python language server: "pyright-langserver" was not found on PATH. To use LSP on these files, install it (npm install -g pyright)',
      );
    } finally {
      await b.cleanup();
    }
  });
});

/** Polls until `check` holds (a process's exit is seen a moment after the signal). */
async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
}
