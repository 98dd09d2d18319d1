import { describe, expect, test } from 'vitest';
import { cli, tempDir } from './_test_io.ts';
import { testTools as tools } from './_test_tools.ts';

describe('toolshed tools', () => {
  test('tools --json lists every tool with name, family, flags, deferred and description', async () => {
    const cwd = await tempDir();
    const r = await cli(['tools', '--json', '--cwd', cwd], { tools });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    const custom = rows.filter((row) => row['family'] === 'custom');
    expect(custom.map((row) => row['name'])).toEqual(['Boom', 'Cd', 'Closer', 'Counter', 'Echo', 'Pwd', 'Writer']);
    expect(rows.map((row) => row['name'])).toEqual(rows.map((row) => row['name'] as string).sort());
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(['concurrencySafe', 'deferred', 'description', 'family', 'name', 'readOnly']);
    expect(rows.find((row) => row['name'] === 'Counter')).toEqual({
      name: 'Counter',
      family: 'custom',
      readOnly: true,
      concurrencySafe: false,
      deferred: false,
      description: 'Counts how often it was called in this session.',
    });
  });

  test('tools --json reports null flags for a tool whose flags cannot be computed from {}', async () => {
    const cwd = await tempDir();
    const rows = JSON.parse((await cli(['tools', '--json', '--cwd', cwd], { tools })).stdout) as Record<string, unknown>[];
    expect(rows.find((row) => row['name'] === 'Echo')).toMatchObject({ readOnly: null, concurrencySafe: null });
  });

  test('tools prints an aligned table with yes, no and varies', async () => {
    const cwd = await tempDir();
    const r = await cli(['tools', '--cwd', cwd], { tools });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +FAMILY +READ-ONLY +CONCURRENCY-SAFE +DEFERRED +DESCRIPTION$/);
    const column = lines[0]!.indexOf('READ-ONLY');
    const counter = lines.find((l) => l.startsWith('Counter'))!;
    const echo = lines.find((l) => l.startsWith('Echo'))!;
    expect(counter.slice(column, column + 3)).toBe('yes');
    expect(echo.slice(column, column + 6)).toBe('varies');
    const familyColumn = lines[0]!.indexOf('FAMILY');
    for (const line of lines.slice(1)) expect(line.slice(familyColumn)).toMatch(/^[a-z]+ {2}/);
  });

  test('tools --only lists the tools of the families named and no others', async () => {
    const cwd = await tempDir();
    const r = await cli(['tools', '--json', '--only', 'fs', '--cwd', cwd]);
    expect(r.code).toBe(0);
    const families = new Set((JSON.parse(r.stdout) as { family: string }[]).map((row) => row.family));
    expect([...families].filter((f) => f !== 'fs')).toEqual([]);
  });

  test('tools takes no arguments', async () => {
    const r = await cli(['tools', 'Read']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unexpected "Read"');
    expect(r.stderr).toContain('Usage: toolshed tools [--json]');
  });
});

describe('toolshed tools notices', () => {
  // The web family says on setup that WebSearch waits for a backend, unless the environment configures one.
  test.skipIf(Boolean(process.env['BRAVE_API_KEY'] || process.env['SEARXNG_URL']))(
    'tools prints the notices of the families on stderr, keeping stdout for the pool',
    async () => {
      const cwd = await tempDir();
      const r = await cli(['tools', '--json', '--only', 'web', '--cwd', cwd]);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^toolshed: info: WebSearch is disabled: .*BRAVE_API_KEY/m);
      expect((JSON.parse(r.stdout) as { name: string }[]).map((row) => row.name)).toContain('WebFetch');
    },
  );
});
