import { describe, expect, test } from 'vitest';
import { FAMILY_NAMES, FAMILY_SETTINGS_KEYS, loadFamilies, otherFamilyKeys, parseFamilyList } from './families.ts';
import { UsageError } from './usage_error.ts';

describe('parseFamilyList', () => {
  test('parseFamilyList gives every family when --only is absent', () => {
    expect(parseFamilyList([])).toEqual(['fs', 'shell', 'web', 'agent', 'search', 'lsp', 'mcp']);
  });

  test('parseFamilyList merges repeated and comma-separated values in the canonical order', () => {
    expect(parseFamilyList(['mcp, fs', 'fs,web'])).toEqual(['fs', 'web', 'mcp']);
  });

  test('parseFamilyList rejects an unknown family and a list with no names', () => {
    expect(() => parseFamilyList(['fs,lps'])).toThrow(UsageError);
    expect(() => parseFamilyList(['fs,lps'])).toThrow(/Unknown family "lps".*fs, shell, web, agent, search, lsp, mcp/);
    expect(() => parseFamilyList([','])).toThrow(/names no family/);
  });
});

describe('loadFamilies', () => {
  test('loadFamilies builds every family package under its short name, or says which one failed', async () => {
    // The family packages are built in parallel with the CLI; one that does not load must be a
    // warning that names it, never a crash or a silent gap.
    const { families, warnings } = await loadFamilies(FAMILY_NAMES);
    const loaded = families.map((f) => f.name);
    const failed = FAMILY_NAMES.filter((name) => !loaded.includes(name));
    expect(loaded).toEqual(FAMILY_NAMES.filter((name) => loaded.includes(name)));
    expect(warnings).toHaveLength(failed.length);
    failed.forEach((name, i) => expect(warnings[i]).toContain(`The "${name}" family could not be loaded`));
    expect(loaded).toContain('fs');
  });

  test('FAMILY_SETTINGS_KEYS lists exactly the settings keys the families own', async () => {
    const { families, warnings } = await loadFamilies(FAMILY_NAMES);
    expect(warnings).toEqual([]);
    expect(families.flatMap((f) => (f.settings ? [f.settings.key] : [])).sort()).toEqual(
      [...FAMILY_SETTINGS_KEYS].sort(),
    );
    expect(otherFamilyKeys(families)).toEqual([]);
    expect(otherFamilyKeys(families.filter((f) => f.name !== 'lsp'))).toEqual(['lsp']);
  });

  test('loadFamilies turns a configuration the MCP bridge rejects into a usage error naming the file', async () => {
    const bad = { mcpServers: { git: { command: 42 } } };
    const error = await loadFamilies(['mcp'], { mcpConfig: bad, mcpConfigFile: '.mcp.json' }).catch((e: unknown) => e);
    // Before the bridge checks configurations, any config is accepted; after, it must name the file.
    if (error instanceof Error) {
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toContain('--mcp-config file ".mcp.json"');
    }
  });

  test('loadFamilies builds only the families asked for', async () => {
    const { families } = await loadFamilies(['shell', 'mcp'], { mcpConfig: { mcpServers: {} } });
    expect(families.map((f) => f.name)).toEqual(['shell', 'mcp']);
  });
});
