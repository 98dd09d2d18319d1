/**
 * A host process for the inherited-descriptor test: its parent starts it with an extra pipe on
 * fd 100 (no close-on-exec, as a harness or a make jobserver leaves one; Node marks only fds 0–15
 * and those right after them close-on-exec at startup), and it runs commands
 * through the Bash tool that try to use them. It prints one JSON line: what it holds itself, what a
 * bare `spawn` passes on (the control), and what the Bash tool's commands saw.
 *
 * Usage: `node --conditions=@toolshed/source --import tsx inherited_fd_child.ts <cwd> [sandbox]`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { contentToText, createSession } from '@toolshed/core';
import { shellTools } from '../family.ts';

const [cwd = process.cwd(), mode = 'plain'] = process.argv.slice(2);
const sandboxed = mode === 'sandbox';
const held = readdirSync('/proc/self/fd');
// The control: a child spawned without the tool's prologue writes to both pipes.
spawnSync('bash', ['-c', 'echo control >&100'], { stdio: 'inherit' });

const session = await createSession({
  cwd,
  stateDir: path.join(cwd, '.state'),
  families: [shellTools(sandboxed ? { sandbox: { enabled: true, autoAllow: true } } : {})],
  permissions: { mode: 'bypassPermissions' },
});
const commands = [
  'ls -l /proc/$$/fd',
  'echo leaked >&100; echo "write=$?"',
  // A grandchild and a background task inherit the same table.
  'sh -c "ls -l /proc/\\$\\$/fd"',
];
const outputs: string[] = [];
for (const [i, command] of commands.entries()) {
  const [result] = await session.run([{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command } }]);
  outputs.push(result ? contentToText(result.content) : 'no result');
}
// A background task starts through the same runner.
const [started] = await session.run([
  {
    type: 'tool_use',
    id: 'toolu_bg',
    name: 'Bash',
    input: { command: 'echo leaked-bg >&100; ls -l /proc/$$/fd', run_in_background: true },
  },
]);
const taskId = /task id (\S+?)\./.exec(started ? contentToText(started.content) : '')?.[1] ?? 'missing';
const [read] = await session.run([
  { type: 'tool_use', id: 'toolu_read', name: 'TaskOutput', input: { task_id: taskId, block: true, timeout: 30_000 } },
]);
outputs.push(read ? contentToText(read.content) : 'no result');
await session.close();
process.stdout.write(`${JSON.stringify({ held, outputs })}\n`);
