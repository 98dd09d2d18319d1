import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { cli, tempDir } from './_test_io.ts';
import { testTools as tools } from './_test_tools.ts';
import { cliNodeArgs } from './_test_cli.ts';

describe('the terminal permission prompt: allow once / always / deny', () => {
  test('"a" allows the call and saves the suggested rule to .toolshed/settings.local.json, saying where', async () => {
    const cwd = await tempDir();
    const r = await cli(['call', 'Writer', '{"file_path":"out.txt","content":"yes"}', '--cwd', cwd], {
      tools,
      isTTY: true,
      stdin: 'a\n',
      env: { NO_COLOR: '1' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(path.join(cwd, 'out.txt'), 'utf8')).toBe('yes');
    const file = path.join(cwd, '.toolshed', 'settings.local.json');
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.permissions.allow).toEqual(['Writer']);
    expect(r.stderr).toContain(`saved Writer to permissions.allow in ${file}`);
    expect(r.stderr).toContain('[a] always allow Writer (saved to .toolshed/settings.local.json)');
  });

  test('"always" keeps what the settings file already holds and does not repeat a rule', async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, '.toolshed', 'settings.local.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(
      file,
      JSON.stringify({ permissions: { deny: ['Read(./.env)'], allow: ['Bash(ls:*)'] }, env: { A: '1' } }),
    );
    const r = await cli(['call', 'Writer', '{"file_path":"out.txt","content":"x"}', '--cwd', cwd], {
      tools,
      isTTY: true,
      stdin: 'n\nalways\n',
    }); // n: do not trust the folder
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      permissions: { deny: ['Read(./.env)'], allow: ['Bash(ls:*)', 'Writer'] },
      env: { A: '1' },
    });
  });

  test('a settings file that is not JSON is left alone: the call is allowed once and the user told', async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, '.toolshed', 'settings.local.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '{ broken');
    const r = await cli(
      ['call', 'Writer', '{"file_path":"out.txt","content":"x"}', '--cwd', cwd, '--setting-sources', 'user'],
      { tools, isTTY: true, stdin: 'a\n' },
    );
    expect(r.stderr).toContain('not saved');
    expect(await readFile(file, 'utf8')).toBe('{ broken');
  });

  test("a project's .toolshed/settings.local.json that links to the user's settings is not written: the rule stays in this project", async () => {
    const home = await tempDir();
    const userFile = path.join(home, '.claude', 'settings.json');
    await mkdir(path.dirname(userFile), { recursive: true });
    const userText = `${JSON.stringify({ permissions: { allow: ['Read'] } })}\n`;
    await writeFile(userFile, userText);
    const cwd = await tempDir();
    await mkdir(path.join(cwd, '.toolshed'));
    // What a cloned repository can hold: a relative link out of the project.
    await symlink(
      path.relative(path.join(cwd, '.toolshed'), userFile),
      path.join(cwd, '.toolshed', 'settings.local.json'),
    );
    const r = await cli(['call', 'Writer', '{"file_path":"out.txt","content":"yes"}', '--cwd', cwd], {
      tools,
      isTTY: true,
      stdin: 'n\na\n', // n: do not trust the folder; a: always allow Writer here
      env: { HOME: home, NO_COLOR: '1' },
    });
    expect(r.code, r.stderr).toBe(0); // allowed once
    expect(await readFile(userFile, 'utf8')).toBe(userText);
    expect(r.stderr).toContain(
      `not saved: ${path.join(cwd, '.toolshed', 'settings.local.json')} leads to ${userFile}, outside the project folder`,
    );
    // In another project, Writer still asks (and without a terminal, is denied).
    const other = await tempDir();
    const again = await cli(['call', 'Writer', '{"file_path":"out.txt","content":"no"}', '--cwd', other], {
      tools,
      env: { HOME: home },
    });
    expect(again.code).toBe(1);
    expect(existsSync(path.join(other, 'out.txt'))).toBe(false);
  });

  test('a .toolshed folder that links into the project itself still saves there', async () => {
    const cwd = await tempDir();
    await mkdir(path.join(cwd, 'config', 'toolshed'), { recursive: true });
    await symlink(path.join('config', 'toolshed'), path.join(cwd, '.toolshed'));
    const r = await cli(['call', 'Writer', '{"file_path":"out.txt","content":"yes"}', '--cwd', cwd], {
      tools,
      isTTY: true,
      stdin: 'a\n',
      env: { NO_COLOR: '1' },
    });
    expect(r.code, r.stderr).toBe(0);
    const saved = JSON.parse(await readFile(path.join(cwd, 'config', 'toolshed', 'settings.local.json'), 'utf8'));
    expect(saved.permissions.allow).toEqual(['Writer']);
  });

  test('"n" denies and saves nothing', async () => {
    const cwd = await tempDir();
    const r = await cli(['call', 'Writer', '{"file_path":"out.txt","content":"x"}', '--cwd', cwd], {
      tools,
      isTTY: true,
      stdin: 'n\n',
    });
    expect(r.code).toBe(1);
    expect(existsSync(path.join(cwd, '.toolshed', 'settings.local.json'))).toBe(false);
  });
});

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const hasScript = spawnSync('script', ['--version']).status === 0;

function withColour(noColor: string | undefined, home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, TOOLSHED_DEBUG: '', TERM: 'xterm' };
  delete env['NO_COLOR'];
  if (noColor) env['NO_COLOR'] = noColor;
  return env;
}

describe.skipIf(!hasScript)('the permission prompt in a real terminal', () => {
  if (!hasScript) console.log('skipped: `script` (util-linux) is not installed, so no pseudo-terminal test runs');

  test('Bash: "a" saves the narrow rule, runs the command, and the prompt is coloured unless NO_COLOR', async () => {
    for (const noColor of [undefined, '1']) {
      const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-prompt-')));
      const home = path.join(root, 'home');
      const cwd = path.join(root, 'project');
      await mkdir(home);
      await mkdir(cwd);
      const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      const command = [process.execPath, ...cliNodeArgs(), 'call', 'Bash', '{"command":"touch made.txt"}', '--cwd', cwd]
        .map(quote)
        .join(' ');
      const child = spawn('script', ['-qfec', command, '/dev/null'], {
        cwd: cliDir,
        env: withColour(noColor, home),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      const sent = new Promise<void>((resolve) => {
        const check = () => {
          if (output.includes('[n] deny')) {
            child.stdin.write('a\n');
            child.stdout.off('data', check);
            resolve();
          }
        };
        child.stdout.on('data', check);
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      await sent;
      expect(code, output).toBe(0);
      expect(existsSync(path.join(cwd, 'made.txt'))).toBe(true);
      const saved = JSON.parse(await readFile(path.join(cwd, '.toolshed', 'settings.local.json'), 'utf8'));
      expect(saved.permissions.allow).toEqual(['Bash(touch made.txt)']);
      expect(output).toContain('settings.local.json');
      if (noColor) expect(output).not.toContain('\u001b[');
      else expect(output).toContain('\u001b[33m');
    }
  }, 60_000);
});
