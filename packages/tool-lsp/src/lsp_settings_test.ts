import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { contentToText, createSession, lintSettings, type Session } from '@toolshed/core';
import { FIXTURE, realTypeScriptServer } from './_test_bench.ts';
import { lspTools, type LspToolsOptions } from './family.ts';
import { LSP_SETTINGS } from './lsp_settings.ts';

let root: string;
let home: string;
let project: string;
let marker: string;
const sessions: Session[] = [];
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-lsp-settings-')));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  marker = path.join(root, 'started-by-settings');
  await cp(FIXTURE, project, { recursive: true });
  await mkdir(path.join(home, '.toolshed'), { recursive: true });
  await mkdir(path.join(project, '.toolshed'), { recursive: true });
});
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  await rm(root, { recursive: true, force: true });
});

const userSettings = (content: unknown) =>
  writeFile(path.join(home, '.toolshed', 'settings.json'), JSON.stringify(content));
const projectSettings = (content: unknown) =>
  writeFile(path.join(project, '.toolshed', 'settings.json'), JSON.stringify(content));

/** A "server" that only proves it was started: it writes the marker file and exits. */
const markerServer = () => ({
  command: process.execPath,
  args: ['-e', "require('fs').writeFileSync(process.argv[1], 'started')", marker],
});

async function open(family: LspToolsOptions, trustedProject: boolean): Promise<Session> {
  const session = await createSession({
    cwd: project,
    homeDir: home,
    stateDir: path.join(root, '.state'),
    settingsSources: ['user', 'project'],
    trustedProject,
    families: [lspTools(family)],
  });
  sessions.push(session);
  return session;
}

async function call(session: Session, input: Record<string, unknown>) {
  const [block] = await session.run([{ type: 'tool_use', id: `t${Math.random()}`, name: 'LSP', input }]);
  return { text: contentToText(block!.content), isError: block!.is_error === true };
}

describe('the "lsp" settings key', { timeout: 120_000 }, () => {
  test("the user's settings choose the server: a real one replaces a command the code gave that does not exist", async () => {
    await userSettings({ lsp: { servers: { typescript: realTypeScriptServer() }, timeoutMs: 60_000 } });
    const session = await open(
      { servers: { typescript: { command: '/nonexistent/language-server', extensions: ['.ts'] } } },
      false,
    );
    const { text, isError } = await call(session, {
      operation: 'goToDefinition',
      filePath: 'src/main.ts',
      line: 5,
      character: 37,
    });
    expect(isError).toBe(false);
    expect(text).toContain('src/math.ts:13:17: export function add');
  });

  test('an untrusted project cannot choose what is started; once trusted, it can', async () => {
    // The attacker's repository names its own program as the TypeScript server.
    await projectSettings({ lsp: { servers: { typescript: markerServer() } } });
    const untrusted = await open({ servers: { typescript: realTypeScriptServer() }, timeoutMs: 60_000 }, false);
    const answer = await call(untrusted, { operation: 'documentSymbol', filePath: 'src/math.ts' });
    expect(answer.isError).toBe(false);
    expect(answer.text).toContain('add');
    expect(existsSync(marker)).toBe(false);
    expect(
      untrusted
        .notices()
        .map((n) => n.message)
        .join('\n'),
    ).toMatch(/not trusted.*"lsp"/);

    const trusted = await open({ servers: { typescript: realTypeScriptServer() }, timeoutMs: 60_000 }, true);
    const started = await call(trusted, { operation: 'documentSymbol', filePath: 'src/math.ts' });
    expect(started.isError).toBe(true);
    expect(existsSync(marker)).toBe(true);
  });

  test("the settings files' env reaches the servers", async () => {
    await userSettings({
      env: { TOOLSHED_LSP_PROBE: 'from-settings' },
      lsp: {
        servers: {
          typescript: {
            command: process.execPath,
            args: [
              '-e',
              "require('fs').writeFileSync(process.argv[1], process.env.TOOLSHED_LSP_PROBE ?? 'unset')",
              marker,
            ],
          },
        },
      },
    });
    const session = await open({}, false);
    await call(session, { operation: 'documentSymbol', filePath: 'src/math.ts' });
    expect(await readFile(marker, 'utf8')).toBe('from-settings');
  });

  test('false removes a default server, and the error says how to add one back', async () => {
    await userSettings({ lsp: { servers: { python: false } } });
    await writeFile(path.join(project, 'a.py'), 'x = 1\n');
    const session = await open({}, false);
    const { text, isError } = await call(session, { operation: 'documentSymbol', filePath: 'a.py' });
    expect(isError).toBe(true);
    expect(text).toContain('No language server is configured for "a.py"');
    expect(text).toContain('"lsp" key of a settings file');
    expect(text).not.toContain('python:');
  });

  test("settings that clash with the code are one error notice, and the code's servers stay", async () => {
    await userSettings({ lsp: { servers: { rust: { command: 'rust-analyzer', extensions: ['.ts'] } } } });
    const session = await open({}, false);
    const notice = session.notices().find((n) => n.level === 'error');
    expect(notice?.message).toContain('The "lsp" settings cannot be used');
    expect(notice?.message).toContain('servers.rust.extensions has ".ts"');
    const { text } = await call(session, { operation: 'documentSymbol', filePath: 'nothing.rs' });
    expect(text).toContain('No language server is configured');
  });

  test('a malformed value stops the session with the key path and where it is documented', async () => {
    await userSettings({ lsp: { servers: { rust: { command: 'rust-analyzer', extension: ['.rs'] } } } });
    await expect(open({}, false)).rejects.toThrow(
      /lsp\.servers\.rust has a key it does not know: "extension"[^\n]*README/,
    );
  });

  test('rules lint with the family loaded reports the same problem', async () => {
    await projectSettings({ lsp: { timeoutMs: 0 } });
    const report = await lintSettings({
      cwd: project,
      homeDir: home,
      sources: ['project'],
      familySettings: [LSP_SETTINGS],
    });
    expect(report.problems.join('\n')).toContain('lsp.timeoutMs is invalid');
  });
});
