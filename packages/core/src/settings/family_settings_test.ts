import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../tool.ts';
import { defineFamily, type FamilySetupApi } from '../family.ts';
import { createSession } from '../session.ts';
import { openChildSession } from '../child_session.ts';
import { ToolshedError } from '../errors.ts';
import type { FamilySettingsDef } from './family_settings.ts';
import { checkFamilySetting, mergeFamilySetting } from './family_settings.ts';
import { lintSettings } from './lint_settings.ts';
import { loadSettings } from './load_settings.ts';
import { readSettingsFile } from './read_settings_file.ts';

const lsp: FamilySettingsDef = {
  key: 'lsp',
  schema: z.strictObject({
    servers: z.record(z.string(), z.strictObject({ command: z.string(), extensions: z.array(z.string()) })).optional(),
    timeoutMs: z.number().positive().optional(),
  }),
  help: 'See "Settings" in the @toolshed/tool-lsp README.',
};

let root: string;
let home: string;
let proj: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-family-settings-')));
  home = join(root, 'home');
  proj = join(root, 'proj');
  await mkdir(join(home, '.toolshed'), { recursive: true });
  await mkdir(join(proj, '.toolshed'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const put = (path: string, content: unknown) => writeFile(path, JSON.stringify(content));
const userFile = () => join(home, '.toolshed', 'settings.json');
const projectFile = () => join(proj, '.toolshed', 'settings.json');

describe('a family settings key in one file', () => {
  test("is checked by the family's schema: the error names the key path, the value's problem and the family's help", async () => {
    await put(userFile(), { lsp: { servers: { rust: { command: 7, extensions: ['.rs'] } } } });
    const result = await readSettingsFile(userFile(), { familySettings: [lsp] });
    expect(result.content).toBeUndefined();
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toContain('lsp.servers.rust.command is invalid');
    expect(result.errors[0]).toContain('expected string');
    expect(result.errors[0]).toContain('@toolshed/tool-lsp README');
    expect(result.issues[0]?.key).toBe('lsp.servers.rust.command');
  });

  test('names a key the schema does not know', async () => {
    await put(userFile(), { lsp: { servers: { rust: { comand: 'x', extensions: ['.rs'] } } } });
    const result = await readSettingsFile(userFile(), { familySettings: [lsp] });
    expect(result.errors.join('\n')).toContain('lsp.servers.rust has a key it does not know: "comand"');
  });

  test('a valid value comes back parsed in familySettings', async () => {
    await put(userFile(), { lsp: { timeoutMs: 5000 } });
    const result = await readSettingsFile(userFile(), { familySettings: [lsp] });
    expect(result.errors).toEqual([]);
    expect(result.familySettings).toEqual({ lsp: { timeoutMs: 5000 } });
  });

  test('a misspelt family key gets the family key suggested, and the suggestion is a key that loads', async () => {
    await put(userFile(), { lps: { timeoutMs: 5000 } });
    const result = await readSettingsFile(userFile(), { familySettings: [lsp] });
    expect(result.errors[0]).toContain('key "lps" is not a settings key');
    const suggested = /Did you mean "([^"]+)"/.exec(result.errors[0]!)?.[1];
    expect(suggested).toBe('lsp');
    await put(userFile(), { [suggested!]: { timeoutMs: 5000 } });
    expect((await readSettingsFile(userFile(), { familySettings: [lsp] })).errors).toEqual([]);
  });

  test("without the family the key is unknown; listed as another family's key it loads unchecked", async () => {
    await put(userFile(), { lsp: { anything: true } });
    expect((await readSettingsFile(userFile())).errors[0]).toContain('key "lsp" is not a settings key');
    const other = await readSettingsFile(userFile(), { otherFamilyKeys: ['lsp'] });
    expect(other.errors).toEqual([]);
    expect(other.familySettings).toEqual({});
  });
});

describe('family settings across files', () => {
  test('merge object by object, the later file winning, and record the files that set them', async () => {
    await put(userFile(), { lsp: { servers: { ts: { command: 'tsls', extensions: ['.ts'] } }, timeoutMs: 1000 } });
    await put(projectFile(), {
      lsp: { servers: { py: { command: 'pyright', extensions: ['.py'] } }, timeoutMs: 2000 },
    });
    const settings = await loadSettings({
      cwd: proj,
      homeDir: home,
      sources: ['user', 'project'],
      trustedProject: true,
      familySettings: [lsp],
    });
    expect(settings.errors).toEqual([]);
    expect(settings.familySettings['lsp']).toEqual({
      value: {
        servers: { ts: { command: 'tsls', extensions: ['.ts'] }, py: { command: 'pyright', extensions: ['.py'] } },
        timeoutMs: 2000,
      },
      sources: [userFile(), projectFile()],
    });
  });

  test("an untrusted project's family settings are ignored whole (they may start processes), and the warning names them", async () => {
    await put(userFile(), { lsp: { servers: { ts: { command: 'tsls', extensions: ['.ts'] } } } });
    await put(projectFile(), {
      lsp: { servers: { ts: { command: '/tmp/evil', extensions: ['.ts'] } } },
      permissions: { deny: ['Read(./secret)'] },
    });
    const settings = await loadSettings({
      cwd: proj,
      homeDir: home,
      sources: ['user', 'project'],
      trustedProject: false,
      familySettings: [lsp],
    });
    expect(settings.familySettings['lsp']).toEqual({
      value: { servers: { ts: { command: 'tsls', extensions: ['.ts'] } } },
      sources: [userFile()],
    });
    expect(settings.permissions.rules.deny.map((r) => r.raw)).toEqual(['Read(./secret)']);
    expect(settings.warnings.join('\n')).toMatch(/not trusted.*"lsp"/);
  });

  test('an invalid value in a project file is an error even when the project is untrusted', async () => {
    await put(projectFile(), { lsp: { timeoutMs: -1 } });
    const settings = await loadSettings({
      cwd: proj,
      homeDir: home,
      sources: ['project'],
      trustedProject: false,
      familySettings: [lsp],
    });
    expect(settings.errors.join('\n')).toContain('lsp.timeoutMs is invalid');
  });

  test('lintSettings checks the family keys as a session would', async () => {
    await put(projectFile(), { lsp: { timeoutMs: 'soon' } });
    const report = await lintSettings({ cwd: proj, homeDir: home, sources: ['project'], familySettings: [lsp] });
    expect(report.problems.join('\n')).toContain('lsp.timeoutMs is invalid');
    const unchecked = await lintSettings({ cwd: proj, homeDir: home, sources: ['project'], otherFamilyKeys: ['lsp'] });
    expect(unchecked.problems).toEqual([]);
  });
});

describe('mergeFamilySetting', () => {
  test('replaces lists and scalars whole, merges objects, and changes neither input', () => {
    const lower = { a: [1, 2], b: { c: 1, d: 2 } };
    const higher = { a: [3], b: { d: 3 } };
    expect(mergeFamilySetting(lower, higher)).toEqual({ a: [3], b: { c: 1, d: 3 } });
    expect(lower).toEqual({ a: [1, 2], b: { c: 1, d: 2 } });
    expect(mergeFamilySetting({ a: 1 }, 'x')).toBe('x');
  });

  test('a "__proto__" key from JSON is data, never the prototype', () => {
    const merged = mergeFamilySetting({ a: 1 }, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
  });

  test('checkFamilySetting returns the parsed value or the problems', () => {
    expect(checkFamilySetting(lsp, { timeoutMs: 1 })).toEqual({ value: { timeoutMs: 1 }, problems: [] });
    expect(checkFamilySetting(lsp, 'x').problems[0]?.key).toBe('lsp');
  });
});

describe('a session with a family that owns a settings key', () => {
  const echo = buildTool({
    name: 'Echo',
    inputSchema: z.object({}),
    isReadOnly: () => true,
    async description() {
      return 'Echo';
    },
    async call(_input, ctx) {
      return { data: JSON.stringify(ctx.env ?? {}) };
    },
  });
  // Opens a child session, runs Echo there, and answers with what the child's Echo saw.
  const inChild = buildTool({
    name: 'InChild',
    inputSchema: z.object({}),
    isReadOnly: () => true,
    async description() {
      return 'Runs Echo in a child session';
    },
    async call(_input, ctx) {
      const child = await openChildSession(ctx, {});
      try {
        const [result] = await child.run([{ type: 'tool_use', id: 'c1', name: 'Echo', input: {} }]);
        return { data: String(result?.content) };
      } finally {
        await child.close();
      }
    },
  });
  const seen: unknown[] = [];
  const family = () =>
    defineFamily({
      name: 'lsp',
      version: '1.0.0',
      tools: [echo, inChild],
      settings: lsp,
      setup: (api: FamilySetupApi) => void seen.push(api.settings),
    });

  test("hands setup the merged value of the user's files, and undefined when none sets it", async () => {
    seen.length = 0;
    await put(userFile(), { lsp: { timeoutMs: 1234 }, env: { FROM_SETTINGS: '1' } });
    const session = await createSession({ cwd: proj, homeDir: home, settingsSources: ['user'], families: [family()] });
    expect(seen).toEqual([{ timeoutMs: 1234 }]);
    // A child session reads no settings files; it gets the parent's family settings and env.
    const [result] = await session.run([{ type: 'tool_use', id: 't1', name: 'InChild', input: {} }]);
    expect(seen).toEqual([{ timeoutMs: 1234 }, { timeoutMs: 1234 }]);
    expect(result?.content).toContain('"FROM_SETTINGS":"1"');
    await session.close();
    const none = await createSession({ cwd: proj, homeDir: home, settingsSources: [], families: [family()] });
    expect(seen.at(-1)).toBeUndefined();
    await none.close();
  });

  test('a bad value stops the session with the file and key named', async () => {
    await put(userFile(), { lsp: { timeoutMs: 'x' } });
    const error = await createSession({
      cwd: proj,
      homeDir: home,
      settingsSources: ['user'],
      families: [family()],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolshedError);
    expect((error as Error).message).toContain(`Settings file "${userFile()}": lsp.timeoutMs is invalid`);
  });

  test('two families cannot own one key, and a family cannot take a key of Toolshed or Claude Code', async () => {
    const twin = defineFamily({ name: 'other', version: '1.0.0', tools: [echo], settings: lsp });
    await expect(createSession({ cwd: proj, families: [family(), twin] })).rejects.toThrow(
      'Families "lsp" and "other" both own the settings key "lsp"',
    );
    expect(() =>
      defineFamily({ name: 'x', version: '1', tools: [echo], settings: { ...lsp, key: 'permissions' } }),
    ).toThrow(/one of Toolshed's or Claude Code's own settings keys/);
    expect(() => defineFamily({ name: 'x', version: '1', tools: [echo], settings: { ...lsp, key: 'a b' } })).toThrow(
      /settings.key must be a word/,
    );
  });
});
