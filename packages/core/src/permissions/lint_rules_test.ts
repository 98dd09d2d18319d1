import { describe, expect, test } from 'vitest';
import { lintRules, type LintFindingKind } from './lint_rules.ts';

const TOOLS = [
  'Read',
  'Edit',
  'Write',
  'Glob',
  'Grep',
  'Bash',
  'WebFetch',
  'Agent',
  'mcp__github__create_issue',
  'mcp__github__list_issues',
];
const options = { cwd: '/nonexistent-lint/proj', toolNames: TOOLS, homeDir: '/nonexistent-lint/home' };

function kinds(
  layer: { allow?: string[]; deny?: string[]; ask?: string[] },
  extra: Partial<typeof options> & { additionalDirectories?: string[] } = {},
) {
  return lintRules([{ source: 'cli', ...layer }], { ...options, ...extra }).map((f) => [f.kind, f.rule]);
}

describe('lintRules', () => {
  const clean: [list: 'allow' | 'deny' | 'ask', rule: string][] = [
    ['allow', 'Bash(npm test:*)'],
    ['allow', 'Bash(git diff *)'],
    ['allow', 'Bash(echo "a && b")'],
    ['allow', 'Read(./src/**)'],
    ['allow', 'Edit(../proj/src/**)'],
    ['deny', 'Read(//etc/**)'],
    ['deny', 'Read(~/.ssh/**)'],
    ['deny', 'Read(.env)'],
    ['allow', 'WebFetch(domain:example.com)'],
    ['allow', 'mcp__github'],
    ['allow', 'mcp__github__*'],
    ['allow', 'mcp__github__create_issue'],
    ['allow', 'Agent(Explore)'],
    ['ask', 'Bash(git push:*)'],
    ['allow', 'Edit(//nonexistent-lint/**)'],
  ];
  test.each(clean)('finds nothing wrong with %s rule %j', (list, rule) => {
    expect(kinds({ [list]: [rule] })).toEqual([]);
  });

  const bad: [
    name: string,
    layer: { allow?: string[]; deny?: string[]; ask?: string[] },
    kind: LintFindingKind,
    rule: string,
    message: string,
  ][] = [
    [
      "a malformed rule, with the parser's fix",
      { allow: ['Bash(npm test'] },
      'malformed',
      'Bash(npm test',
      'write "Bash(npm test)" or "Bash(npm test:*)"',
    ],
    [
      'a mangled prefix',
      { allow: ['Bash(npm test*:)'] },
      'malformed',
      'Bash(npm test*:)',
      'did you mean "Bash(npm test:*)"?',
    ],
    [
      'a WebFetch rule without domain:',
      { allow: ['WebFetch(https://example.com/docs)'] },
      'malformed',
      'WebFetch(https://example.com/docs)',
      'did you mean "WebFetch(domain:example.com)"?',
    ],
    [
      'a WebFetch domain with a scheme',
      { deny: ['WebFetch(domain:https://evil.test)'] },
      'malformed',
      'WebFetch(domain:https://evil.test)',
      'did you mean "WebFetch(domain:evil.test)"?',
    ],
    [
      'a tool that is not in the pool, with the closest name',
      { allow: ['Raed(./src/**)'] },
      'unknown_tool',
      'Raed(./src/**)',
      'which is not in the pool: did you mean "Read"?',
    ],
    [
      'an MCP server that is not in the pool',
      { deny: ['mcp__gitlab'] },
      'unknown_tool',
      'mcp__gitlab',
      'no MCP tool starts with "mcp__gitlab"',
    ],
    [
      'an allow rule a blanket deny shadows',
      { allow: ['Bash(npm test:*)'], deny: ['Bash'] },
      'shadowed',
      'Bash(npm test:*)',
      'deny rule "Bash" from cli covers every call it allows',
    ],
    [
      'an allow rule a prefix deny shadows',
      { allow: ['Bash(rm -rf build)'], deny: ['Bash(rm:*)'] },
      'shadowed',
      'Bash(rm -rf build)',
      'never takes effect',
    ],
    [
      'an allow prefix inside a deny prefix',
      { allow: ['Bash(git push --force:*)'], deny: ['Bash(git push:*)'] },
      'shadowed',
      'Bash(git push --force:*)',
      'never takes effect',
    ],
    [
      'an allow path rule inside a denied directory',
      { allow: ['Read(./secrets/public/**)'], deny: ['Read(./secrets)'] },
      'shadowed',
      'Read(./secrets/public/**)',
      'never takes effect',
    ],
    [
      'an Edit deny shadowing a Write allow',
      { allow: ['Write(./src/a.ts)'], deny: ['Edit(./src/**)'] },
      'shadowed',
      'Write(./src/a.ts)',
      'never takes effect',
    ],
    [
      'a Bash rule with &&',
      { allow: ['Bash(npm test && rm:*)'] },
      'shell_operator',
      'Bash(npm test && rm:*)',
      'contains the shell operator "&&"',
    ],
    ['a Bash rule with a pipe', { allow: ['Bash(cat x | sh)'] }, 'shell_operator', 'Bash(cat x | sh)', '"|"'],
    ['a Bash rule with ;', { deny: ['Bash(ls; rm -rf /)'] }, 'shell_operator', 'Bash(ls; rm -rf /)', '";"'],
    ['a Bash rule with $(', { ask: ['Bash(echo $(id))'] }, 'shell_operator', 'Bash(echo $(id))', '"$("'],
    [
      'a cwd-relative path rule that climbs out',
      { allow: ['Edit(../other/**)'] },
      'outside_working_directories',
      'Edit(../other/**)',
      'To work there, add the directory to permissions.additionalDirectories',
    ],
  ];
  test.each(bad)('finds %s', (_name, layer, kind, rule, message) => {
    const findings = lintRules([{ source: 'cli', ...layer }], options);
    const finding = findings.find((f) => f.kind === kind);
    expect(finding).toMatchObject({ kind, rule, source: 'cli', severity: 'error' });
    expect(finding!.message).toContain(message);
  });

  test('leaves alone the rules check suggests: absolute // and ~ rules name a place on purpose', () => {
    expect(
      lintRules([{ source: 'cli', allow: ['Read(//etc/**)', 'Edit(~/notes/**)'], deny: ['Read(~/.ssh/**)'] }], options),
    ).toEqual([]);
  });

  test('a rule for a Claude Code tool the pool lacks is a warning without an odd suggestion; a real typo is an error', () => {
    const names = ['Bash', 'Read', 'Edit'];
    const findings = lintRules(
      [
        {
          source: 'cli',
          allow: ['Task', 'TodoWrite', 'WebSearch', 'MultiEdit', 'LS', 'NotebookRead', 'Agent(Explore)'],
          deny: ['Raed'],
        },
      ],
      { ...options, toolNames: names },
    );
    const claude = findings.filter((f) => f.rule !== 'Raed');
    expect(claude.map((f) => [f.rule, f.kind, f.severity])).toEqual(
      ['Task', 'TodoWrite', 'WebSearch', 'MultiEdit', 'LS', 'NotebookRead', 'Agent(Explore)'].map((r) => [
        r,
        'unknown_tool',
        'warning',
      ]),
    );
    expect(claude[0]!.message).toBe(
      'Rule "Task" is for Claude Code\'s tool "Task", which is not in this pool: fine for Claude Code, and it does nothing here',
    );
    for (const f of claude) expect(f.message).not.toContain('did you mean');
    expect(findings.find((f) => f.rule === 'Raed')).toMatchObject({
      severity: 'error',
      message: expect.stringContaining('did you mean "Read"?'),
    });
  });

  test('a tool name in the wrong case warns with the right name', () => {
    const [finding] = lintRules([{ source: 'cli', allow: ['bash(ls:*)'] }], {
      ...options,
      toolNames: ['Bash', 'Read'],
    });
    expect(finding).toMatchObject({ kind: 'unknown_tool', severity: 'warning' });
    expect(finding!.message).toContain(
      'tool names are case-sensitive and the tool is "Bash": this rule matches nothing; write "Bash(ls:*)"',
    );
  });

  test('rules for the tools of a configured MCP server are fine; an unconfigured server is an error naming the configured ones', () => {
    const layer = {
      source: 'cli',
      allow: ['mcp__github__create_issue', 'mcp__github', 'mcp__github__*'],
      deny: ['mcp__gitlab__push'],
    };
    const findings = lintRules([layer], { ...options, toolNames: ['Bash'], mcpServerNames: ['github'] });
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['mcp__gitlab__push', 'error']]);
    expect(findings[0]!.message).toContain('(configured servers: github)');
  });

  test('a backslash in a path rule warns with the rule written with /', () => {
    const findings = lintRules([{ source: 'cli', allow: ['Edit(src\\**)'] }], options);
    expect(findings.find((f) => f.kind === 'backslash')).toMatchObject({
      severity: 'warning',
      message: expect.stringContaining('write "Edit(src/**)"'),
    });
  });

  test('warns about a prefix without a boundary, which also matches longer words', () => {
    const [finding] = lintRules([{ source: 'cli', allow: ['Bash(npm test*)'] }], options);
    expect(finding).toMatchObject({ kind: 'loose_prefix', severity: 'warning' });
    expect(finding!.message).toContain('did you mean "Bash(npm test:*)"?');
  });

  test('finds a settings-relative rule of the user settings that points into the home directory', () => {
    const findings = lintRules(
      [
        {
          source: '/nonexistent-lint/home/.toolshed/settings.json',
          root: '/nonexistent-lint/home',
          allow: ['Read(/src/**)'],
        },
      ],
      options,
    );
    expect(findings).toEqual([expect.objectContaining({ kind: 'outside_working_directories', rule: 'Read(/src/**)' })]);
    expect(findings[0]!.message).toContain(
      'A leading "/" is relative to the settings file\'s folder (/nonexistent-lint/home); for the working directory write "./src/**"',
    );
  });

  test('does not flag a path rule inside an additional directory', () => {
    expect(kinds({ allow: ['Edit(../shared/**)'] }, { additionalDirectories: ['../shared'] })).toEqual([]);
  });

  test("does not check tool names without the pool's names", () => {
    expect(lintRules([{ source: 'cli', allow: ['Nope'] }], { cwd: '/p' })).toEqual([]);
  });

  test("sees shadowing across layers and names the deny rule's source", () => {
    const findings = lintRules(
      [
        { source: '/h/.toolshed/settings.json', deny: ['WebFetch'] },
        { source: '/p/.toolshed/settings.json', allow: ['WebFetch(domain:example.com)'] },
      ],
      options,
    );
    expect(findings).toEqual([
      expect.objectContaining({
        kind: 'shadowed',
        source: '/p/.toolshed/settings.json',
        message: expect.stringContaining('from /h/.toolshed/settings.json'),
      }),
    ]);
  });

  test('does not call an allow rule shadowed when the deny rule is narrower', () => {
    expect(
      kinds({ allow: ['Bash(git:*)', 'Read(./src/**)'], deny: ['Bash(git push:*)', 'Read(./src/secret.ts)'] }),
    ).toEqual([]);
  });

  test('reports a rule that is not a string', () => {
    const findings = lintRules([{ source: 'f', allow: [42] }], options);
    expect(findings[0]).toMatchObject({ kind: 'malformed', rule: '42' });
  });
});
