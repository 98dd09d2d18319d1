// The spinner as a person sees it: `toolshed call` in a pseudo-terminal (`script`), and the same
// calls where no spinner may show (NO_COLOR, TERM=dumb, stdout redirected, no terminal at all).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runToolshed } from './_test_process.ts';
import { cliNodeArgs } from './_test_cli.ts';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const hasScript = spawnSync('script', ['--version']).status === 0;
const FRAME = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const ESCAPE = '\u001b[';

async function folders(): Promise<{ home: string; cwd: string }> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-spinner-')));
  const home = path.join(root, 'home');
  const cwd = path.join(root, 'project');
  await mkdir(home);
  await mkdir(cwd);
  return { home, cwd };
}

/**
 * Starts `toolshed ARGS` in a pseudo-terminal, with `shellSuffix` after the command (a
 * redirection), and answers `answer` once `prompt` shows, `waitMs` later. Resolves with the
 * exit code, everything the terminal showed, and how much had been shown when the answer went.
 */
function inTerminal(
  args: string[],
  options: { env: Record<string, string>; home: string; shellSuffix?: string; prompt?: string; answer?: string },
): Promise<{ code: number | null; output: string; shownBeforeAnswer: number }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, ...cliNodeArgs(), ...args].map(quote).join(' ');
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: options.home, TOOLSHED_DEBUG: '', ...options.env };
  if (options.env['NO_COLOR'] === undefined) delete env['NO_COLOR'];
  const child = spawn('script', ['-qfec', `${command}${options.shellSuffix ?? ''}`, '/dev/null'], {
    cwd: cliDir,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let shownBeforeAnswer = -1;
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
    if (options.prompt && shownBeforeAnswer < 0 && output.includes(options.prompt)) {
      shownBeforeAnswer = 0;
      // A pause long enough for many frames, had the spinner not stopped for the prompt.
      setTimeout(() => {
        shownBeforeAnswer = output.length;
        child.stdin.write(options.answer ?? '\n');
      }, 1_000);
    }
  });
  if (!options.prompt) child.stdin.end();
  return new Promise((resolve) =>
    child.on('close', (code) => {
      child.stdin.destroy();
      resolve({ code, output, shownBeforeAnswer });
    }),
  );
}

const slow = JSON.stringify({ command: 'sleep 1.2; echo done' });

describe.skipIf(!hasScript)('the spinner in a terminal', () => {
  if (!hasScript) console.log('skipped: `script` (util-linux) is not installed, so no pseudo-terminal test runs');

  test('a call that takes a while shows a spinner naming it, erased before the result is printed', async () => {
    const { home, cwd } = await folders();
    const r = await inTerminal(['call', 'Bash', slow, '--yes', '--cwd', cwd], { env: { TERM: 'xterm' }, home });
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(/\r\u001b\[K[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Bash sleep 1\.2; echo done/);
    // The result's line starts clean: the last frame was erased right before it.
    expect(r.output).toMatch(/\r\u001b\[Kdone\r?\n/);
  }, 60_000);

  test('no spinner with NO_COLOR, with TERM=dumb, or when stdout is not a terminal', async () => {
    const { home, cwd } = await folders();
    for (const [env, suffix] of [
      [{ TERM: 'xterm', NO_COLOR: '1' }, ''],
      [{ TERM: 'dumb' }, ''],
      [{ TERM: 'xterm' }, ` > ${path.join(cwd, 'out.txt')}`],
    ] as const) {
      const r = await inTerminal(['call', 'Bash', slow, '--yes', '--cwd', cwd], { env, home, shellSuffix: suffix });
      expect(r.code, r.output).toBe(0);
      expect(r.output, JSON.stringify(env) + suffix).not.toMatch(FRAME);
      expect(r.output, JSON.stringify(env) + suffix).not.toContain(ESCAPE);
    }
    expect(await readFile(path.join(cwd, 'out.txt'), 'utf8')).toBe('done\n');
  }, 60_000);

  test('the spinner stops while the permission prompt waits, and spins again once it is answered', async () => {
    const { home, cwd } = await folders();
    const command = JSON.stringify({ command: 'sleep 1.2; touch made.txt' });
    const r = await inTerminal(['call', 'Bash', command, '--cwd', cwd], {
      env: { TERM: 'xterm' },
      home,
      prompt: '[n] deny: ',
      answer: 'y\n',
    });
    expect(r.code, r.output).toBe(0);
    expect(existsSync(path.join(cwd, 'made.txt'))).toBe(true);
    const prompt = r.output.indexOf('[n] deny: ');
    expect(r.output.slice(prompt, r.shownBeforeAnswer), 'nothing drawn over the waiting prompt').toBe('[n] deny: ');
    expect(r.output.slice(r.shownBeforeAnswer)).toMatch(/\r\u001b\[K[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Bash sleep 1\.2; touch made\.txt/);
  }, 60_000);
});

describe.skipIf(!hasScript)('colour in a terminal', () => {
  test('a warning has its level in yellow, and NO_COLOR keeps it plain', async () => {
    const { home, cwd } = await folders();
    const args = [
      'check',
      'Read',
      '{"file_path":"a.txt"}',
      '--only',
      'fs,shell',
      '--allow',
      'bash(ls:*)',
      '--cwd',
      cwd,
    ];
    const coloured = await inTerminal(args, { env: { TERM: 'xterm' }, home });
    expect(coloured.output).toContain('toolshed: \u001b[33mwarn\u001b[39m: --allow "bash(ls:*)"');
    const plain = await inTerminal(args, { env: { TERM: 'xterm', NO_COLOR: '1' }, home });
    expect(plain.output).toContain('toolshed: warn: --allow "bash(ls:*)"');
    expect(plain.output).not.toContain(ESCAPE);
  }, 60_000);
});

test('without a terminal, a call prints no spinner and no escape code', async () => {
  const { home, cwd } = await folders();
  const r = await runToolshed(['call', 'Bash', slow, '--yes', '--cwd', cwd], { home, env: { TERM: 'xterm' } });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toBe('done\n');
  expect(r.stdout + r.stderr).not.toMatch(FRAME);
  expect(r.stdout + r.stderr).not.toContain(ESCAPE);
}, 60_000);
