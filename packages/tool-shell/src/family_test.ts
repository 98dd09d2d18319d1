import { expect, test } from 'vitest';
import { checkFamily } from '@toolshed/core/testing';
import { shellTools } from './mod.ts';
import { loadBashParser } from './bash_parser.ts';

test('the shell family passes the conformance check, with read-only and writing samples', async () => {
  await loadBashParser();
  const family = shellTools();
  expect(family.name).toBe('shell');
  const tools = await family.loadTools();
  expect(tools.map((t) => t.name)).toEqual(['Bash', 'TaskOutput', 'TaskStop']);
  const problems = await checkFamily(family, {
    sampleInputs: {
      Bash: [{ command: 'ls -la' }, { command: 'rm -rf build' }, { command: 'git status', run_in_background: true }],
    },
  });
  expect(problems).toEqual([]);
});

test('Bash is read-only and concurrency-safe only for read-only commands in the foreground', async () => {
  await loadBashParser();
  const bash = (await shellTools().loadTools())[0]!;
  expect(bash.isReadOnly({ command: 'git log --oneline -5' })).toBe(true);
  expect(bash.isConcurrencySafe({ command: 'git log --oneline -5' })).toBe(true);
  expect(bash.isConcurrencySafe({ command: 'git log --oneline -5', run_in_background: true })).toBe(false);
  // A cd changes where the next calls of the turn run, so they wait for it.
  expect(bash.isReadOnly({ command: 'cd src' })).toBe(true);
  expect(bash.isConcurrencySafe({ command: 'cd src' })).toBe(false);
  expect(bash.isReadOnly({ command: 'npm install' })).toBe(false);
  expect(bash.isDestructive({ command: 'rm -rf build' })).toBe(true);
  expect(bash.isDestructive({ command: 'ls' })).toBe(false);
  for (const command of ['\\rm -rf x', '/bin/rm x', 'timeout 5 rm -rf x', "sh -c 'rm x'", 'sudo git push --force']) {
    expect(bash.isDestructive({ command }), command).toBe(true);
  }
});

test('shellTools rejects an option out of range', () => {
  expect(() => shellTools({ defaultTimeoutMs: -5 })).toThrow(/defaultTimeoutMs must be a positive number/);
});
