// A separate process that uses a task list, for the cross-process tests of task_tools_test.ts.
// Usage: task_worker.ts <tasksDir> <listId> <command> [args…]; prints one JSON line.
//   claim <taskId> <owner> <goFile>   TaskUpdate { taskId, owner, status: "in_progress" } through a real session
//   create <count>           TaskCreate <count> times; prints the ids
//   hold                     takes the list's lock and never lets go (the test kills it)
import { existsSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { contentToText, createSession } from '@toolshed/core';
import { taskListTools } from '../task_tools.ts';

const [tasksDir, taskListId, command, ...args] = process.argv.slice(2) as [string, string, string, ...string[]];

if (command === 'hold') {
  const dir = path.join(tasksDir, taskListId);
  await lockfile.lock(dir, { lockfilePath: path.join(dir, '.lock'), stale: 2000, realpath: false });
  console.log(JSON.stringify({ locked: true }));
  setInterval(() => {}, 1 << 30);
} else {
  const session = await createSession({
    cwd: process.cwd(),
    tools: taskListTools({ tasksDir, taskListId, staleMs: 2000 }),
  });
  const run = async (name: string, input: unknown) => {
    const [result] = await session.run([{ type: 'tool_use', id: `w${process.pid}`, name, input }]);
    return { text: contentToText(result!.content), isError: result!.is_error === true };
  };
  if (command === 'claim') {
    // All claimers start together: each says it is ready, then waits for the test's "go" file.
    console.log(JSON.stringify({ ready: true }));
    while (!existsSync(args[2]!)) await new Promise((resolve) => setTimeout(resolve, 2));
    console.log(JSON.stringify(await run('TaskUpdate', { taskId: args[0], owner: args[1], status: 'in_progress' })));
  } else if (command === 'create') {
    const ids: string[] = [];
    for (let i = 0; i < Number(args[0]); i++) {
      const { text } = await run('TaskCreate', { subject: `from ${process.pid} #${i}`, description: 'x' });
      ids.push(/#(\d+)/.exec(text)![1]!);
    }
    console.log(JSON.stringify({ ids }));
  }
  await session.close();
}
