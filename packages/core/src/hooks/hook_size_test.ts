// A guard hook's decision must not depend on the size of what it was given: the model chooses
// the input, so an input large enough to push the hook's output past the cap must not switch
// the guard off.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createSession } from '../session.ts';
import { tempDir, use, writerTool } from '../_test_tools.ts';
import type { HooksConfig } from './types.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('toolshed-hook-size-'));
});
afterEach(async () => cleanup());

const FIVE_MB = 'A'.repeat(5 * 1024 * 1024);

async function runWrite(hooks: HooksConfig, settings?: object) {
  const log: string[] = [];
  const files: string[] = [];
  if (settings) {
    await writeFile(path.join(dir, 'settings.json'), JSON.stringify(settings));
    files.push(path.join(dir, 'settings.json'));
  }
  const session = await createSession({
    cwd: dir,
    tools: [writerTool(log)],
    hooks,
    settingsFiles: files,
    permissions: { mode: 'bypassPermissions' },
  });
  try {
    const [result] = await session.run([use('t1', 'Writer', { line: FIVE_MB })]);
    return { log, result: result! };
  } finally {
    await session.close();
  }
}

// Echoes the whole input (5 MB and more) to the given stream.
const echoTo = (fd: 1 | 2, code: number) =>
  `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{require("fs").writeSync(${fd}, s);process.exit(${code})})'`;
const denyQuoting = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const i=JSON.parse(s);process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"deny",permissionDecisionReason:"refused: "+JSON.stringify(i.tool_input)}}))})'`;

describe('hook decisions do not depend on output size', () => {
  test('a hook that exits 2 after echoing a 5 MB input to stderr blocks the call, with a reason of bounded size', async () => {
    const { log, result } = await runWrite({ PreToolUse: [{ hooks: [{ type: 'command', command: echoTo(2, 2) }] }] });
    expect(log).toEqual([]);
    expect(result.is_error).toBe(true);
    expect(String(result.content)).toContain('was blocked by PreToolUse hook');
    expect(String(result.content).length).toBeLessThan(20_000);
  });

  test('a hook that exits 0 with a JSON deny quoting a 5 MB input blocks the call and says its output was too large to read', async () => {
    const { log, result } = await runWrite({ PreToolUse: [{ hooks: [{ type: 'command', command: denyQuoting }] }] });
    expect(log).toEqual([]);
    expect(result.is_error).toBe(true);
    expect(String(result.content)).toMatch(/more than the 1 MB/);
    expect(String(result.content)).toMatch(/could not be read/);
  });

  test('exit 2 blocks even when stdout also ran past the cap', async () => {
    const { log } = await runWrite({ PreToolUse: [{ hooks: [{ type: 'command', command: echoTo(1, 2) }] }] });
    expect(log).toEqual([]);
  });

  test('a hook that fails (exit 1) does not block unless it is failClosed or settings say failClosedHooks', async () => {
    const failing = { type: 'command' as const, command: 'exit 1' };
    expect((await runWrite({ PreToolUse: [{ hooks: [failing] }] })).log).toHaveLength(1);
    expect((await runWrite({ PreToolUse: [{ hooks: [{ ...failing, failClosed: true }] }] })).log).toEqual([]);
    const viaSettings = await runWrite({ PreToolUse: [{ hooks: [failing] }] }, { failClosedHooks: true });
    expect(viaSettings.log).toEqual([]);
    expect(String(viaSettings.result.content)).toMatch(/fail-closed/);
  });

  test('failClosedHooks also makes a hook from a settings file block on malformed JSON', async () => {
    const { log } = await runWrite(
      {},
      {
        failClosedHooks: true,
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `printf '{"hookSpecificOutput": 5}'` }] }] },
      },
    );
    expect(log).toEqual([]);
  });
});
