import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { terminalSpinner, type TerminalStream } from './_spinner.ts';

const FRAME = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

function terminal(isTTY = true): TerminalStream & { text: () => string } {
  const chunks: string[] = [];
  return { isTTY, columns: 40, write: (c: string) => chunks.push(c), text: () => chunks.join('') };
}

describe('terminalSpinner', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test('there is a spinner only when both streams are terminals, NO_COLOR is unset and TERM is not dumb', () => {
    const on = (stdout: boolean, stderr: boolean, env: Record<string, string>) =>
      terminalSpinner({ stdout: terminal(stdout), stderr: terminal(stderr) }, { env }).spinner !== undefined;
    expect(on(true, true, { TERM: 'xterm' })).toBe(true);
    expect(on(true, true, { TERM: 'xterm', NO_COLOR: '' })).toBe(true);
    expect(on(true, true, { TERM: 'xterm', NO_COLOR: '1' })).toBe(false);
    expect(on(true, true, { TERM: 'dumb' })).toBe(false);
    expect(on(false, true, { TERM: 'xterm' })).toBe(false);
    expect(on(true, false, { TERM: 'xterm' })).toBe(false);
  });

  test('the spinner shows after the delay, every write erases it first, and stop erases it', () => {
    const stderr = terminal();
    const { stderr: sink, spinner } = terminalSpinner({ stdout: terminal(), stderr }, { env: { TERM: 'xterm' } });
    spinner!.start('Bash npm test');
    vi.advanceTimersByTime(100);
    expect(stderr.text()).toBe('');
    vi.advanceTimersByTime(100);
    expect(stderr.text()).toMatch(/^(\r\u001b\[K[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Bash npm test)+$/);
    sink.write('toolshed: Bash: step 1\n');
    expect(stderr.text().endsWith('\r\u001b[Ktoolshed: Bash: step 1\n')).toBe(true);
    vi.advanceTimersByTime(100);
    expect(stderr.text().split('\n').at(-1)).toMatch(FRAME);
    spinner!.stop();
    expect(stderr.text().endsWith('\r\u001b[K')).toBe(true);
    const after = stderr.text().length;
    vi.advanceTimersByTime(1000);
    expect(stderr.text().length).toBe(after);
  });

  test('no frame is drawn over a line still being written, nor while paused, and a long text is cut to the width', async () => {
    const stdout = terminal();
    const stderr = terminal();
    const streams = terminalSpinner({ stdout, stderr }, { env: { TERM: 'xterm' } });
    streams.spinner!.start('x'.repeat(100));
    streams.stdout.write('half a line');
    vi.advanceTimersByTime(500);
    expect(stderr.text()).toBe('');
    streams.stdout.write(' ends\n');
    vi.advanceTimersByTime(200);
    const frame = stderr.text().split('\r\u001b[K').at(-1)!;
    expect(frame).toMatch(FRAME);
    expect(frame.length).toBe(39);
    let answer!: (value: string) => void;
    const asked = streams.spinner!.pause(
      () =>
        new Promise<string>((resolve) => {
          streams.stderr.write('Allow? ');
          answer = resolve;
        }),
    );
    const before = stderr.text();
    expect(before.endsWith('\r\u001b[KAllow? ')).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(stderr.text()).toBe(before);
    answer('y');
    expect(await asked).toBe('y');
    vi.advanceTimersByTime(200);
    expect(stderr.text().slice(before.length)).toMatch(FRAME);
    streams.spinner!.stop();
  });
});
