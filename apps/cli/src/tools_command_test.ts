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
    for (const row of rows)
      expect(Object.keys(row).sort()).toEqual([
        'concurrencySafe',
        'deferred',
        'description',
        'family',
        'name',
        'readOnly',
      ]);
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
    const rows = JSON.parse((await cli(['tools', '--json', '--cwd', cwd], { tools })).stdout) as Record<
      string,
      unknown
    >[];
    expect(rows.find((row) => row['name'] === 'Echo')).toMatchObject({ readOnly: null, concurrencySafe: null });
  });

  test('tools prints an aligned table with yes and no, for a plain input where {} is not valid', async () => {
    const cwd = await tempDir();
    const r = await cli(['tools', '--cwd', cwd], { tools });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +FAMILY +READ-ONLY +CONCURRENCY-SAFE +DEFERRED +DESCRIPTION$/);
    const column = lines[0]!.indexOf('READ-ONLY');
    const counter = lines.find((l) => l.startsWith('Counter'))!;
    const echo = lines.find((l) => l.startsWith('Echo'))!;
    expect(counter.slice(column, column + 3)).toBe('yes');
    expect(echo.slice(column, column + 4)).toBe('yes ');
    expect(r.stdout).not.toContain('varies');
    const familyColumn = lines[0]!.indexOf('FAMILY');
    const table = lines.slice(1, lines.includes('') ? lines.indexOf('') : undefined);
    for (const line of table) expect(line.slice(familyColumn)).toMatch(/^[a-z]+ {2}/);
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

describe('toolshed tools with the real families', () => {
  test('Read is yes/yes and Bash no/no for a plain input; ToolSearch is left out when nothing is deferred', async () => {
    const cwd = await tempDir();
    const r = await cli(['tools', '--only', 'fs,shell,search', '--cwd', cwd]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.find((l) => l.startsWith('Read '))).toMatch(/^Read +fs +yes +yes +no /);
    expect(lines.find((l) => l.startsWith('Bash '))).toMatch(/^Bash +shell +no +no +no /);
    expect(r.stdout).not.toMatch(/^ToolSearch/m);
    expect(r.stdout).not.toContain('varies');
    // With a deferred tool (LSP), ToolSearch is listed.
    const withLsp = await cli(['tools', '--only', 'fs,lsp,search', '--cwd', cwd]);
    expect(withLsp.stdout).toMatch(/^ToolSearch +search /m);
  });
});

describe('toolshed tools notices', () => {
  test.skipIf(Boolean(process.env['BRAVE_API_KEY'] || process.env['SEARXNG_URL']))(
    'the WebSearch setup hint is shown once by tools and by no other command',
    async () => {
      const cwd = await tempDir();
      const tools = await cli(['tools', '--only', 'web', '--cwd', cwd]);
      expect(tools.stdout.split('WebSearch is disabled').length - 1).toBe(1);
      expect(tools.stderr).not.toContain('WebSearch is disabled');
      const check = await cli([
        'check',
        'WebFetch',
        '{"url":"http://127.0.0.1:1/","prompt":"x"}',
        '--only',
        'web',
        '--cwd',
        cwd,
      ]);
      expect(check.code).toBe(0);
      expect(check.stderr + check.stdout).not.toContain('WebSearch is disabled');
    },
  );

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
