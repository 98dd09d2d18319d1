import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { lintSettings } from './lint_settings.ts';

let root: string;
let home: string;
let proj: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-lint-settings-')));
  home = join(root, 'home');
  proj = join(root, 'proj');
  await mkdir(join(home, '.toolshed'), { recursive: true });
  await mkdir(join(proj, '.toolshed'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('lintSettings', () => {
  test('lints every rule of every file, even when one rule is malformed, naming each file', async () => {
    const user = join(home, '.toolshed', 'settings.json');
    const project = join(proj, '.toolshed', 'settings.json');
    await writeFile(user, JSON.stringify({ permissions: { deny: ['Bash'], allow: ['Read(/src/**)'] } }));
    await writeFile(
      project,
      JSON.stringify({ permissions: { allow: ['Bash(npm test:*)', 'Bash(npm test', 'Grpe'], defaultMode: 'nope' } }),
    );
    const report = await lintSettings({
      cwd: proj,
      homeDir: home,
      sources: ['user', 'project'],
      toolNames: ['Read', 'Bash', 'Grep'],
      layers: [{ source: 'cli', allow: ['Bash(ls && rm)'] }],
    });
    expect(report.findings.map((f) => [f.kind, f.rule, f.source])).toEqual([
      ['outside_working_directories', 'Read(/src/**)', user],
      ['malformed', 'Bash(npm test', project],
      ['unknown_tool', 'Grpe', project],
      ['shell_operator', 'Bash(ls && rm)', 'cli'],
      ['shadowed', 'Bash(npm test:*)', project],
      ['shadowed', 'Bash(ls && rm)', 'cli'],
    ]);
    expect(report.problems).toEqual([
      expect.stringContaining(`Settings file "${project}": permissions.defaultMode is "nope"`),
    ]);
    expect(report.files.map((f) => f.exists)).toEqual([true, true]);
  });

  test('takes additional directories from the files into account', async () => {
    await writeFile(
      join(proj, '.toolshed', 'settings.json'),
      JSON.stringify({ permissions: { additionalDirectories: ['../shared'], allow: ['Edit(../shared/**)'] } }),
    );
    const report = await lintSettings({ cwd: proj, homeDir: home, sources: ['project'] });
    expect(report.findings).toEqual([]);
    expect(report.problems).toEqual([]);
  });

  test('reports a file that is not JSON as a problem', async () => {
    await writeFile(join(proj, '.toolshed', 'settings.local.json'), '{');
    const report = await lintSettings({ cwd: proj, homeDir: home, sources: ['local'] });
    expect(report.problems[0]).toContain('is not valid JSON (the file ends too soon at line 1, column 2)');
  });
});
