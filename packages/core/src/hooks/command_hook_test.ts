import { execFile } from 'node:child_process';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runCommandHook } from './command_hook.ts';
import type { HookInput } from './types.ts';

const execFileAsync = promisify(execFile);

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-command-hook-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function input(overrides: Partial<HookInput> = {}): HookInput {
  return {
    session_id: 'session-1',
    cwd: dir,
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls -la', description: 'List files' },
    tool_use_id: 'toolu_01',
    tool_response: { stdout: 'a\nb', exitCode: 0 },
    ...overrides,
  };
}

function options(extra: { signal?: AbortSignal; env?: Record<string, string> } = {}) {
  return { signal: extra.signal ?? new AbortController().signal, cwd: dir, ...(extra.env ? { env: extra.env } : {}) };
}

/** A string no other process on the machine has in its command line. */
function uniqueNumber(): string {
  return `${process.pid}${Math.floor(Math.random() * 1e9)}`;
}

/** The pids whose command line matches `pattern` (pgrep exits 1 when there are none). */
async function pgrep(pattern: string): Promise<number[]> {
  try {
    const { stdout } = await execFileAsync('pgrep', ['-f', pattern]);
    return stdout.split('\n').filter(Boolean).map(Number);
  } catch (error) {
    if ((error as { code?: unknown }).code === 1) return [];
    throw error;
  }
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Gave up waiting for ${what}`);
}

describe('runCommandHook', () => {
  test('gives the hook every input field as JSON on stdin', async () => {
    const hookInput = input({ hook_event_name: 'PostToolUseFailure', error: 'Bash failed: exit 1' });
    const result = await runCommandHook(
      { type: 'command', command: 'cat > "$OUT_FILE"' },
      hookInput,
      options({ env: { OUT_FILE: join(dir, 'stdin.json') } }),
    );
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, aborted: false, hook: 'cat > "$OUT_FILE"' });
    expect(JSON.parse(await readFile(join(dir, 'stdin.json'), 'utf8'))).toEqual(hookInput);
  });

  test('runs in cwd with TOOLSHED_PROJECT_DIR, CLAUDE_PROJECT_DIR, options.env and the parent environment', async () => {
    process.env.TOOLSHED_HOOK_TEST_INHERITED = 'inherited';
    try {
      const result = await runCommandHook(
        {
          type: 'command',
          command:
            'pwd; echo "$TOOLSHED_PROJECT_DIR"; echo "$CLAUDE_PROJECT_DIR"; echo "$EXTRA"; echo "$TOOLSHED_HOOK_TEST_INHERITED"',
        },
        input(),
        options({ env: { EXTRA: 'extra value' } }),
      );
      expect(result.stdout.split('\n')).toEqual([dir, dir, dir, 'extra value', 'inherited', '']);
    } finally {
      delete process.env.TOOLSHED_HOOK_TEST_INHERITED;
    }
  });

  test('parses JSON stdout of a hook that exits 0', async () => {
    const json =
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}';
    const result = await runCommandHook({ type: 'command', command: `echo '${json}'` }, input(), options());
    expect(result.exitCode).toBe(0);
    expect(result.output).toEqual(JSON.parse(json));
    expect(result.outputError).toBeUndefined();
  });

  test('treats stdout that is not JSON as plain text and parses nothing', async () => {
    const result = await runCommandHook(
      { type: 'command', command: 'echo "checked 3 files, all fine"' },
      input(),
      options(),
    );
    expect(result).toMatchObject({ exitCode: 0, stdout: 'checked 3 files, all fine\n' });
    expect(result.output).toBeUndefined();
    expect(result.outputError).toBeUndefined();
  });

  test('names the bad field when JSON output does not fit the hook output shape', async () => {
    const command = `echo '{"hookSpecificOutput":{"permissionDecision":"maybe"}}'`;
    const result = await runCommandHook({ type: 'command', command }, input(), options());
    expect(result.output).toBeUndefined();
    expect(result.outputError).toBe('hookSpecificOutput.permissionDecision must be allow, deny or ask, got "maybe"');
  });

  test('reports stdout that starts with "{" but does not parse', async () => {
    const result = await runCommandHook({ type: 'command', command: `echo '{"decision": block}'` }, input(), options());
    expect(result.outputError).toMatch(/^stdout starts with "\{" but is not valid JSON/);
  });

  test('does not parse stdout of a hook that exits non-zero, and keeps its exit code and stderr', async () => {
    const result = await runCommandHook(
      { type: 'command', command: `echo '{"decision":"nope"}'; echo 'rm is not allowed' >&2; exit 2` },
      input(),
      options(),
    );
    expect(result).toMatchObject({ exitCode: 2, stderr: 'rm is not allowed\n', timedOut: false });
    expect(result.output).toBeUndefined();
    expect(result.outputError).toBeUndefined();
  });

  test('reports the signal that killed the hook', async () => {
    const result = await runCommandHook({ type: 'command', command: 'kill -KILL $$' }, input(), options());
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGKILL', timedOut: false });
  });

  test("a timeout kills the hook's whole process group, background children included", async () => {
    const marker = uniqueNumber();
    const pattern = `30\\.${marker}`;
    const running = runCommandHook(
      { type: 'command', command: `sleep 30.${marker} & sleep 30.${marker}; echo never`, timeout: 1 },
      input(),
      options(),
    );
    // The shell and both sleeps carry the marker in their command lines.
    await waitFor(async () => (await pgrep(pattern)).length >= 3, 'the hook and its two sleeps to start');
    const result = await running;
    expect(result).toMatchObject({ timedOut: true, aborted: false, exitCode: null, stdout: '' });
    expect(await pgrep(pattern)).toEqual([]);
  });

  test("aborting the signal kills the hook's whole process group", async () => {
    const marker = uniqueNumber();
    const pattern = `30\\.${marker}`;
    const controller = new AbortController();
    const running = runCommandHook(
      { type: 'command', command: `sleep 30.${marker} & sleep 30.${marker}` },
      input(),
      options({ signal: controller.signal }),
    );
    await waitFor(async () => (await pgrep(pattern)).length >= 3, 'the hook and its two sleeps to start');
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ aborted: true, timedOut: false, exitCode: null });
    expect(await pgrep(pattern)).toEqual([]);
  });

  test('a signal that is already aborted starts nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runCommandHook(
      { type: 'command', command: 'touch started' },
      input(),
      options({ signal: controller.signal }),
    );
    expect(result).toMatchObject({ aborted: true, exitCode: null });
    await expect(readFile(join(dir, 'started'))).rejects.toThrow(/ENOENT/);
  });

  test('a hook that never reads a large stdin does not crash anything', async () => {
    const big = input({ tool_input: { content: 'x'.repeat(8 * 1024 * 1024) } });
    expect(await runCommandHook({ type: 'command', command: 'exit 0' }, big, options())).toMatchObject({ exitCode: 0 });
    expect(await runCommandHook({ type: 'command', command: 'echo done; exit 3' }, big, options())).toMatchObject({
      exitCode: 3,
      stdout: 'done\n',
    });
  });

  test('does not wait for a background process the hook left holding stdout', async () => {
    const marker = uniqueNumber();
    const pattern = `5\\.${marker}`;
    const result = await runCommandHook(
      { type: 'command', command: `sleep 5.${marker} & echo started`, timeout: 30 },
      input(),
      options(),
    );
    try {
      expect(result).toMatchObject({ exitCode: 0, stdout: 'started\n', timedOut: false });
      // The background sleep is still alive: the hook finished without waiting for it.
      expect((await pgrep(pattern)).length).toBe(1);
    } finally {
      for (const pid of await pgrep(pattern)) process.kill(pid, 'SIGKILL');
    }
  });

  test('caps stdout at 1 MB and says JSON was cut off', async () => {
    const text = await runCommandHook(
      { type: 'command', command: "head -c 3000000 /dev/zero | tr '\\0' a" },
      input(),
      options(),
    );
    expect(text.stdout.length).toBe(1024 * 1024);
    const json = await runCommandHook(
      { type: 'command', command: `printf '{"reason":"'; head -c 3000000 /dev/zero | tr '\\0' a; printf '"}'` },
      input(),
      options(),
    );
    expect(json.outputError).toContain('cut off at the 1 MB output limit');
  });

  test('reports a working directory that does not exist instead of throwing', async () => {
    const missing = join(dir, 'missing');
    const result = await runCommandHook({ type: 'command', command: 'true' }, input(), {
      signal: new AbortController().signal,
      cwd: missing,
    });
    expect(result).toMatchObject({
      exitCode: null,
      startError: `could not start: working directory "${missing}" does not exist`,
    });
  });

  test('reports a timeout that is not a positive number', async () => {
    const result = await runCommandHook({ type: 'command', command: 'true', timeout: -5 }, input(), options());
    expect(result.startError).toBe('timeout must be a positive number of seconds, got -5');
  });

  test('labels a long multi-line command with its first 80 characters on one line', async () => {
    const command = `true\n${'# padding '.repeat(20)}`;
    const result = await runCommandHook({ type: 'command', command }, input(), options());
    expect(result.hook).toHaveLength(80);
    expect(result.hook).toMatch(/^true # padding .*…$/);
  });
});
