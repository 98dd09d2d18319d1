import { describe, expect, test } from 'vitest';
import { parseSettingSources, settingsFileLocations } from './setting_sources.ts';

describe('settingsFileLocations', () => {
  test("lists the files lowest precedence first, Claude Code's below Toolshed's", () => {
    const files = settingsFileLocations(['local', 'claude', 'project', 'user'], { projectDir: '/p', homeDir: '/h' });
    expect(files).toEqual([
      { source: 'claude', path: '/h/.claude/settings.json', root: '/h' },
      { source: 'user', path: '/h/.toolshed/settings.json', root: '/h' },
      { source: 'claude', path: '/p/.claude/settings.json', root: '/p', inProject: true },
      { source: 'claude', path: '/p/.claude/settings.local.json', root: '/p', inProject: true },
      { source: 'project', path: '/p/.toolshed/settings.json', root: '/p', inProject: true },
      { source: 'local', path: '/p/.toolshed/settings.local.json', root: '/p', inProject: true },
    ]);
  });

  test("in the home folder itself, ~/.claude/settings.json is the user's file, read once and trusted", () => {
    const files = settingsFileLocations(['claude', 'user', 'project'], { projectDir: '/h', homeDir: '/h' });
    expect(files.filter((f) => f.path === '/h/.claude/settings.json')).toEqual([
      { source: 'claude', path: '/h/.claude/settings.json', root: '/h' },
    ]);
    expect(files.filter((f) => f.path === '/h/.toolshed/settings.json')).toEqual([
      { source: 'user', path: '/h/.toolshed/settings.json', root: '/h' },
    ]);
  });

  test('reads nothing without sources', () => {
    expect(settingsFileLocations([], { projectDir: '/p' })).toEqual([]);
  });
});

describe('parseSettingSources', () => {
  test('parses a comma list, trimming and dropping duplicates', () => {
    expect(parseSettingSources('user, project,local,claude,user')).toEqual(['user', 'project', 'local', 'claude']);
  });

  test('takes an empty list as no sources', () => {
    expect(parseSettingSources('')).toEqual([]);
  });

  test('rejects an unknown source with the closest one', () => {
    expect(() => parseSettingSources('user,projet')).toThrow(
      new RangeError('Setting source "projet" is not one of user, project, local, claude: did you mean "project"?'),
    );
  });
});
