import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { startFakeModelServer, type FakeModelServer, type FakeReply } from '@toolshed/tool-agent/testing';
import { cli, EMPTY_HOME, tempDir } from './_test_io.ts';
import { cliNodeArgs } from './_test_cli.ts';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use' as const, id, name, input });
const say = (text: string): FakeReply => ({ content: [{ type: 'text', text }] });

async function project(): Promise<{ cwd: string; greeting: string }> {
  const cwd = await tempDir();
  mkdirSync(path.join(cwd, 'src'));
  const greeting = path.join(cwd, 'src', 'greeting.ts');
  writeFileSync(greeting, "export const greeting = 'Helo, world';\n");
  return { cwd, greeting };
}

describe('toolshed chat', () => {
  test('without a key it exits 2 and names the variables to set', async () => {
    const r = await cli(['chat'], { env: {} });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ANTHROPIC_API_KEY');
    expect(r.stderr).toContain('OPENAI_API_KEY');
    expect(r.stderr).toContain('OPENAI_BASE_URL');
    const p = await cli(['-p', 'hello'], { env: {} });
    expect(p.code).toBe(2);
  });

  test('an unknown --provider is a usage error', async () => {
    const r = await cli(['chat', '--provider', 'gemini'], { env: { ANTHROPIC_API_KEY: 'k' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown provider "gemini"');
  });

  test('toolshed -p runs one prompt against Anthropic and prints the answer', async () => {
    const { cwd, greeting } = await project();
    server = await startFakeModelServer([
      { content: [use('r1', 'Read', { file_path: greeting })] },
      say('It exports a greeting with a typo.'),
    ]);
    const r = await cli(
      ['-p', 'What', 'is', 'in', 'src/greeting.ts?', '--cwd', cwd, '--only', 'fs', '--setting-sources', ''],
      { env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url } },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('It exports a greeting with a typo.\n');
    expect(JSON.stringify(server.requests[0]!.body.messages)).toContain('What is in src/greeting.ts?');
  });

  test('chat --print --json gives the whole run, through an OpenAI-compatible server', async () => {
    const { cwd, greeting } = await project();
    server = await startFakeModelServer([{ content: [use('r1', 'Read', { file_path: greeting })] }, say('Read it.')]);
    const r = await cli(
      [
        'chat',
        '--print',
        'read it',
        '--json',
        '--model',
        'qwen-local',
        '--cwd',
        cwd,
        '--only',
        'fs',
        '--setting-sources',
        '',
      ],
      { env: { OPENAI_BASE_URL: server.openaiBaseURL } },
    );
    expect(r.code).toBe(0);
    const run = JSON.parse(r.stdout) as {
      text: string;
      stopReason: string;
      provider: string;
      model: string;
      toolCalls: Record<string, number>;
      usage: { inputTokens: number };
      metrics: { total: { calls: number } };
    };
    expect(run).toMatchObject({
      text: 'Read it.',
      stopReason: 'end_turn',
      provider: 'openai-chat',
      model: 'qwen-local',
      toolCalls: { Read: 1 },
    });
    expect(run.usage.inputTokens).toBe(20);
    expect(run.metrics.total.calls).toBe(1);
    expect(server.requests[0]!.api).toBe('openai-chat');
  });

  test('-p without a TTY denies what would ask, naming the rule, and the model hears it', async () => {
    const { cwd, greeting } = await project();
    server = await startFakeModelServer([
      { content: [use('r1', 'Read', { file_path: greeting })] },
      { content: [use('e1', 'Edit', { file_path: greeting, old_string: 'Helo', new_string: 'Hello' })] },
      say('I could not edit.'),
    ]);
    const r = await cli(['-p', 'fix it', '--cwd', cwd, '--only', 'fs', '--setting-sources', ''], {
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url },
    });
    expect(r.code).toBe(0);
    expect(readFileSync(greeting, 'utf8')).toContain('Helo');
    expect(JSON.stringify(server.requests[2]!.body.messages)).toMatch(/Edit\(/);
  });

  test('without a TTY, chat reads one message per line until the input ends, keeps the conversation, and prints the metrics', async () => {
    const { cwd, greeting } = await project();
    server = await startFakeModelServer([
      { content: [use('r1', 'Read', { file_path: greeting })] },
      say('It has a typo.'),
      say('Yes, "Helo".'),
    ]);
    const r = await cli(['chat', '--cwd', cwd, '--only', 'fs', '--setting-sources', ''], {
      stdin: 'what is in greeting.ts?\n\nwhich typo?\n',
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('● Read');
    expect(r.stdout).toContain('It has a typo.');
    expect(r.stdout).toContain('Yes, "Helo".');
    expect(r.stderr).toMatch(/Session: 1 tool call \(Read 1\), 0 failed; model: 3 turns, 30 tokens in, 15 out\./);
    // The second message was sent with the whole conversation before it.
    expect(JSON.stringify(server.requests[2]!.body.messages)).toContain('what is in greeting.ts?');
  });

  test('escape codes in what the model writes, in a tool result and in a todo reach the terminal escaped', async () => {
    const { cwd } = await project();
    // An OSC 52 clipboard write, a title change, a clear screen and a bidi override.
    const hostile = '\u001b]52;c;cm0gLXJmIH4=\u0007\u001b]0;owned\u0007\u001b[2J\u202e';
    const file = path.join(cwd, 'src', 'evil.txt');
    writeFileSync(file, `${hostile}first line\n`);
    const todos = [{ content: `Fix ${hostile}`, status: 'pending', activeForm: 'Fixing' }];
    server = await startFakeModelServer([
      { content: [{ type: 'text', text: `Reading ${hostile}\tthen\n` }, use('r1', 'Read', { file_path: file })] },
      { content: [use('t1', 'TodoWrite', { todos })] },
      say(`Done ${hostile}`),
      // The CLI's client retries a 500 twice.
      ...[1, 2, 3].map(() => ({ error: { status: 500, message: `overloaded ${hostile}` } })),
      say(`Printed ${hostile}`),
    ]);
    const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url };
    const r = await cli(['chat', '--cwd', cwd, '--setting-sources', ''], { stdin: 'read it\nagain\n', env });
    const p = await cli(['-p', 'once more', '--cwd', cwd, '--setting-sources', ''], { env });
    for (const out of [r.stdout, r.stderr, p.stdout, p.stderr]) expect(out).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    expect(r.stdout).toContain('Reading \\u001b]52;c;cm0gLXJmIH4=\\u0007');
    expect(r.stdout).toContain('\tthen\n');
    expect(r.stdout).toContain('\\u001b[2J');
    expect(r.stderr).toContain('overloaded \\u001b]52');
    expect(p.stdout).toContain('Printed \\u001b]52');
  });

  test('chat shows the todo list as a checklist each time the model changes it', async () => {
    const { cwd } = await project();
    const todos = [
      { content: 'Find the typo', status: 'completed', activeForm: 'Finding the typo' },
      { content: 'Fix the greeting', status: 'in_progress', activeForm: 'Fixing the greeting' },
      { content: 'Run the tests', status: 'pending', activeForm: 'Running the tests' },
    ];
    server = await startFakeModelServer([{ content: [use('t1', 'TodoWrite', { todos })] }, say('Planned.')]);
    const r = await cli(['chat', '--cwd', cwd, '--only', 'agent', '--setting-sources', ''], {
      stdin: 'plan it\n',
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url, HOME: EMPTY_HOME },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  [x] Find the typo\n  [~] Fixing the greeting\n  [ ] Run the tests\n');
    expect(r.stdout).toContain('Planned.');
  });

  test('a model failure ends -p with exit 1 and the reason', async () => {
    const { cwd } = await project();
    server = await startFakeModelServer([
      { error: { status: 500, message: 'overloaded' } },
      { error: { status: 500, message: 'overloaded' } },
      { error: { status: 500, message: 'overloaded' } },
    ]);
    const r = await cli(['-p', 'hi', '--cwd', cwd, '--only', 'fs', '--setting-sources', ''], {
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url, ANTHROPIC_MAX_RETRIES: '0' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HTTP 500.*overloaded/);
  }, 30_000);
});

// ---- Through a pseudo-terminal: `script` gives the CLI a real TTY. ----

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const hasScript = spawnSync('script', ['--version']).status === 0;

/** The CLI in a pty; `expect` waits for text to appear in its output (no timing assertions). */
function inTerminal(args: string[], env: Record<string, string>) {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, ...cliNodeArgs(), ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: cliDir,
    env: { ...process.env, HOME: EMPTY_HOME, TOOLSHED_DEBUG: '', TERM: 'dumb', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let from = 0;
  return {
    output: () => output,
    /** Waits until `text` appears after what was already waited for. */
    async waitFor(text: string | RegExp, timeoutMs = 30_000): Promise<void> {
      const started = Date.now();
      for (;;) {
        const rest = output.slice(from);
        const at = typeof text === 'string' ? rest.indexOf(text) : rest.search(text);
        if (at >= 0) {
          from += at + 1;
          return;
        }
        if (Date.now() - started > timeoutMs)
          throw new Error(`Timed out waiting for ${String(text)}; output so far:\n${output}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    type: (text: string) => child.stdin.write(text),
    exited,
    kill: () => child.kill('SIGKILL'),
  };
}

describe.skipIf(!hasScript)('toolshed chat in a terminal', () => {
  if (!hasScript) console.log('skipped: `script` (util-linux) is not installed, so no pseudo-terminal test runs');

  test('streams text, shows calls, prompts (always for this rule), aborts a turn with Ctrl-C, exits on a second, prints metrics', async () => {
    const { cwd, greeting } = await project();
    server = await startFakeModelServer([
      { content: [{ type: 'text', text: 'Let me read it.' }, use('r1', 'Read', { file_path: greeting })] },
      { content: [use('e1', 'Edit', { file_path: greeting, old_string: 'Helo', new_string: 'Hello' })] },
      say('Fixed the typo.'),
      {
        content: [use('e2', 'Edit', { file_path: greeting, old_string: 'Hello, world', new_string: 'Hello, world!' })],
      },
      say('Added a bang.'),
      { content: [use('b1', 'Bash', { command: 'sleep 30' })] },
    ]);
    const term = inTerminal(['chat', '--cwd', cwd, '--only', 'fs,shell', '--setting-sources', ''], {
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: server.url,
    });
    try {
      await term.waitFor('toolshed chat: anthropic claude-sonnet-5-5');
      await term.waitFor('> ');
      term.type('fix the typo\n');
      await term.waitFor('Let me read it.');
      await term.waitFor('● Read');
      await term.waitFor('Edit');
      await term.waitFor(/needs approval/);
      await term.waitFor(/\[a\] always allow (Edit\(\S+\))/);
      const rule = /\[a\] always allow (Edit\(\S+\))/.exec(term.output())![1]!;
      term.type('a\n');
      await term.waitFor(`(${rule} is allowed for the rest of this chat)`);
      await term.waitFor('Fixed the typo.');
      expect(readFileSync(greeting, 'utf8')).toBe("export const greeting = 'Hello, world';\n");
      await term.waitFor('> ');
      term.type('add a bang\n');
      await term.waitFor('Added a bang.');
      // The second edit was allowed by the remembered rule: one prompt in all.
      expect(term.output().match(/needs approval/g)).toHaveLength(1);
      expect(readFileSync(greeting, 'utf8')).toBe("export const greeting = 'Hello, world!';\n");
      await term.waitFor('> ');
      term.type('wait\n');
      await term.waitFor('● Bash');
      term.type('\x03');
      await term.waitFor('the turn is aborted');
      await term.waitFor('> ');
      term.type('\x03');
      await term.waitFor(/Session: \d+ tool calls \(Bash 1, Edit 2, Read 1\)/);
      expect(await term.exited).toBe(130);
      expect(server.requests).toHaveLength(6);
    } finally {
      term.kill();
    }
  }, 90_000);

  test('a call that takes a while has the spinner naming it, erased before its outcome is shown', async () => {
    const { cwd } = await project();
    server = await startFakeModelServer([
      { content: [use('b1', 'Bash', { command: 'sleep 1.2; echo slept' })] },
      say('Done sleeping.'),
    ]);
    const term = inTerminal(['chat', '--cwd', cwd, '--only', 'shell', '--setting-sources', '', '--yes'], {
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: server.url,
      TERM: 'xterm',
      NO_COLOR: '',
    });
    try {
      await term.waitFor('> ');
      term.type('sleep a little\n');
      await term.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Bash sleep 1\.2; echo slept/);
      await term.waitFor('Done sleeping.');
      expect(term.output()).toMatch(/\r\u001b\[K {2}⎿ slept/);
      await term.waitFor('> ');
      term.type('/exit\n');
      expect(await term.exited).toBe(0);
    } finally {
      term.kill();
    }
  }, 60_000);

  test('AskUserQuestion asks in the terminal and the model gets the choice', async () => {
    const { cwd } = await project();
    const question = {
      question: 'Which database?',
      header: 'Database',
      options: [
        { label: 'PostgreSQL', description: 'relational' },
        { label: 'SQLite', description: 'one file' },
      ],
    };
    server = await startFakeModelServer([
      { content: [use('q1', 'AskUserQuestion', { questions: [question] })] },
      say('Going with it.'),
    ]);
    const term = inTerminal(['chat', '--cwd', cwd, '--only', 'agent', '--setting-sources', ''], {
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: server.url,
    });
    try {
      await term.waitFor('> ');
      term.type('set up the store\n');
      await term.waitFor('AskUserQuestion asks: Which database?');
      await term.waitFor('2. SQLite');
      await term.waitFor('Database (a number): ');
      term.type('7\n');
      await term.waitFor('is not a number between 1 and 2');
      term.type('2\n');
      await term.waitFor('Database: other (text): ');
      term.type('\n');
      await term.waitFor('Going with it.');
      expect(JSON.stringify(server.requests[1]!.body.messages)).toContain('\\"Which database?\\" → SQLite');
      await term.waitFor('> ');
      term.type('\x03');
      expect(await term.exited).toBe(130);
    } finally {
      term.kill();
    }
  }, 90_000);
});

test("toolshed tools lists the agents of the user's HOME and the project, and reports a broken agent file", async () => {
  const cwd = await tempDir();
  const home = await tempDir();
  mkdirSync(path.join(home, '.claude', 'agents'), { recursive: true });
  mkdirSync(path.join(cwd, '.toolshed', 'agents'), { recursive: true });
  writeFileSync(
    path.join(home, '.claude', 'agents', 'reviewer.md'),
    '---\nname: reviewer\ndescription: Reviews diffs\n---\nYou review diffs.\n',
  );
  writeFileSync(path.join(cwd, '.toolshed', 'agents', 'broken.md'), '---\ndescription: no body\n---\n');
  const r = await cli(['tools', '--json', '--only', 'agent', '--cwd', cwd, '--setting-sources', ''], {
    env: { HOME: home },
  });
  expect(r.code).toBe(0);
  const agent = (JSON.parse(r.stdout) as { name: string; description: string }[]).find((t) => t.name === 'Agent')!;
  expect(agent.description).toContain('- reviewer: Reviews diffs');
  expect(r.stderr).toMatch(/broken\.md: the prompt .* is empty/);
});
