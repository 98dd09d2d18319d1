import { describe, expect, test } from 'vitest';
import { analyzeQuery, analyzeTool, createToolIndex, MAX_QUERY_TERMS } from './tool_index.ts';
import type { AnalyzedTool, SearchableTool, ToolRanker } from './ranker_types.ts';

const catalogue: SearchableTool[] = [
  { name: 'Read', description: 'Reads a file from the local filesystem.', searchHint: 'open view file contents' },
  { name: 'Edit', description: 'Performs exact string replacements in files.' },
  {
    name: 'NotebookEdit',
    description: 'Replaces the contents of a cell in a Jupyter notebook.',
    searchHint: 'jupyter ipynb',
  },
  {
    name: 'WebFetch',
    description: 'Fetches a URL and returns its content as markdown.',
    inputSchema: { type: 'object', properties: { url: { type: 'string', description: 'The address to fetch' } } },
  },
  {
    name: 'mcp__slack__send_message',
    description: 'Posts a message to a Slack channel.',
    inputSchema: { type: 'object', properties: { channel: { type: 'string' } } },
  },
  { name: 'mcp__slack__list_channels', description: 'Lists channels of the workspace.' },
  { name: 'mcp__github__create_issue', description: 'Opens a new issue in a repository.' },
  { name: 'mcp__github__send_invite', description: 'Invites a member to the organization.' },
];

describe('createToolIndex', () => {
  const index = createToolIndex(catalogue);

  test('a query that names a tool part ranks that tool first', () => {
    expect(index.search('notebook')[0]?.name).toBe('NotebookEdit');
    expect(index.search('jupyter cell')[0]?.name).toBe('NotebookEdit');
    expect(index.search('fetch a web page url')[0]?.name).toBe('WebFetch');
  });

  test('MCP names split into server and tool words', () => {
    expect(index.search('slack send message')[0]?.name).toBe('mcp__slack__send_message');
    expect(index.search('github issue')[0]?.name).toBe('mcp__github__create_issue');
  });

  test('the exact name of a tool finds it first even where its words are common', () => {
    expect(index.search('Edit')[0]?.name).toBe('Edit');
    expect(index.search('mcp__github__send_invite', { maxResults: 1 })).toEqual([
      { name: 'mcp__github__send_invite', score: expect.any(Number) },
    ]);
  });

  test('a +word keeps only tools whose name contains it, and ranks them by the rest', () => {
    const hits = index.search('+github send');
    expect(hits.map((h) => h.name)).toEqual(['mcp__github__send_invite', 'mcp__github__create_issue']);
    expect(index.search('+jira send')).toEqual([]);
  });

  test('a +word may be written with the mcp__ prefix of the name, which MCP name words leave out', () => {
    expect(index.search('+mcp__slack send').map((h) => h.name)).toEqual([
      'mcp__slack__send_message',
      'mcp__slack__list_channels',
    ]);
    expect(
      index
        .search('+mcp send')
        .map((h) => h.name)
        .sort(),
    ).toEqual(['mcp__github__send_invite', 'mcp__slack__send_message']);
    expect(index.search('+Slack_Send').map((h) => h.name)).toEqual(['mcp__slack__send_message']);
  });

  test('a phone number in a request (+4915123577723, +1 555-555-5555) is searched as text, not required in a name', () => {
    const phones = createToolIndex([
      { name: 'Veriphone__verify', description: 'Global phone number verification' },
      { name: 'weather', description: 'Forecast for a city' },
    ]);
    expect(phones.search('Is the phone number +4915123577723 valid?').map((h) => h.name)).toEqual([
      'Veriphone__verify',
    ]);
    expect(phones.search('verify +1 555-555-5555').map((h) => h.name)).toEqual(['Veriphone__verify']);
    expect(analyzeQuery('call +4915123577723')?.required).toEqual([]);
    expect(analyzeQuery('+1password vault')?.required).toEqual(['1password']);
  });

  test('regular-expression characters, unicode, a huge query and stopwords find nothing or the right tool, never throw', () => {
    expect(index.search('.*+?^${}()|[]\\ (a+)+$')).toEqual([]);
    expect(index.search('🌦️ 天气 погода')).toEqual([]);
    expect(index.search('the of and to')).toEqual([]);
    expect(index.search('\u0000slack\u0000send')[0]?.name).toBe('mcp__slack__send_message');
    expect(index.search('jupyter '.repeat(200_000))[0]?.name).toBe('NotebookEdit');
    expect(index.search('x'.repeat(100_000))).toEqual([]);
  });

  test('a search gives the same ranking the first time and after other searches have warmed the index', () => {
    const queries = [
      'slack send message',
      'read a file',
      'github issue invite',
      'fetch url markdown',
      'jupyter notebook cell',
    ];
    const fresh = queries.map((q) => createToolIndex(catalogue).search(q, { maxResults: 8 }));
    const warm = createToolIndex(catalogue);
    for (let round = 0; round < 3; round++) {
      for (const q of [...queries].reverse()) warm.search(q);
    }
    expect(queries.map((q) => warm.search(q, { maxResults: 8 }))).toEqual(fresh);
  });

  test('plural and verb forms match (light stemming), and a part of a name word counts', () => {
    expect(index.search('sending messages')[0]?.name).toBe('mcp__slack__send_message');
    expect(index.search('channels')[0]?.name).toBe('mcp__slack__list_channels');
    expect(index.search('book', { maxResults: 1 })[0]?.name).toBe('NotebookEdit');
  });

  test('parameter names and descriptions are searched', () => {
    expect(index.search('address')[0]?.name).toBe('WebFetch');
  });

  test('empty, stopword-only and nonsense queries give an empty list, not an error', () => {
    expect(index.search('')).toEqual([]);
    expect(index.search('   ')).toEqual([]);
    expect(index.search('the of and')).toEqual([]);
    expect(index.search('qqqzzx')).toEqual([]);
    expect(index.search('%$#'.repeat(50_000))).toEqual([]);
    expect(index.search(undefined as unknown as string)).toEqual([]);
  });

  test('maxResults caps the hits and must be positive', () => {
    expect(index.search('file', { maxResults: 2 })).toHaveLength(2);
    expect(() => index.search('file', { maxResults: 0 })).toThrow(/maxResults must be a positive number, got 0/);
  });

  test('results are best first with ties broken by name', () => {
    const hits = createToolIndex([
      { name: 'b_tool', description: 'same words' },
      { name: 'a_tool', description: 'same words' },
    ]).search('same words');
    expect(hits.map((h) => h.name)).toEqual(['a_tool', 'b_tool']);
  });

  test('a tool without a name is a TypeError that says which; a duplicate name is ignored', () => {
    expect(() => createToolIndex([{ name: '', description: 'x' }])).toThrow(/Tool 0 of the catalogue has no name/);
    expect(() => createToolIndex('tools' as unknown as SearchableTool[])).toThrow(
      /takes an array of tools, got string/,
    );
    expect(
      createToolIndex([
        { name: 'A', description: 'x' },
        { name: 'A', description: 'y' },
      ]).size,
    ).toBe(1);
  });
});

test("analyzeTool puts a description's first sentence first and says how many terms and words it gave", () => {
  const tool = analyzeTool({ name: 'cities', description: 'Lists cities. Use getCountries for the countries.' });
  expect(tool.description).toEqual(['list', 'city', 'getcountries', 'use', 'country', 'country']);
  expect(tool.words.description).toEqual(['lists', 'cities', 'use', 'countries', 'countries']);
  expect(tool.descriptionLead).toEqual({ terms: 2, words: 2 });
  expect(analyzeTool({ name: 'x', description: 'One sentence' }).descriptionLead).toEqual({ terms: 2, words: 2 });
  // The text an embedding ranker reads: name words, hint, description and parameters.
  expect(analyzeTool({ name: 'send_mail', description: 'Sends mail.', searchHint: 'email' }).text).toBe(
    'send mail\nemail\nSends mail.',
  );
});

describe('analyzeQuery', () => {
  test('analyzeQuery strips + marks into required words and stems the terms', () => {
    expect(analyzeQuery('+slack send messages')).toEqual({
      text: 'slack send messages',
      terms: ['slack', 'send', 'messag'],
      required: ['slack'],
    });
    expect(analyzeQuery('+')).toBeUndefined();
    expect(analyzeQuery('the')).toBeUndefined();
  });

  test('analyzeQuery keeps the required words and the first MAX_QUERY_TERMS distinct words of a long request', () => {
    const words = Array.from({ length: 300 }, (_, i) => `word${i}x`);
    const parsed = analyzeQuery(`+slack ${words.join(' ')}`)!;
    expect(parsed.terms).toHaveLength(MAX_QUERY_TERMS);
    expect(parsed.terms.slice(0, 3)).toEqual(['slack', 'word0x', 'word1x']);
    expect(parsed.required).toEqual(['slack']);
  });
});

describe('name queries', () => {
  test("a query of a tool name's words finds that tool first, unless two tools share those words", () => {
    const index = createToolIndex([
      {
        name: 'mcp__fs__list_allowed_directories',
        description: 'Lists the directories, all directories, the server may access.',
      },
      { name: 'mcp__fs__list_directory', description: 'Lists a directory.' },
      { name: 'mcp__b__send', description: 'Sends a message.' },
      { name: 'mcp__a__send', description: 'Sends.' },
    ]);
    expect(index.search('list directory')[0]?.name).toBe('mcp__fs__list_directory');
    expect(index.search('fs list directory')[0]?.name).toBe('mcp__fs__list_directory');
    // "send" is the tool part of two names, so neither is promoted: the ranking decides.
    const hits = index.search('send');
    expect(hits.map((h) => h.name).sort()).toEqual(['mcp__a__send', 'mcp__b__send']);
    expect(hits[0]!.score - hits[1]!.score).toBeLessThan(1); // a promoted name scores the best other score + 1
  });
});

describe('groups', () => {
  test('a tool whose description names its server is grouped by that server', () => {
    const group = (description: string, name = 'create_issue') => analyzeTool({ name, description }).group;
    expect(group('Opens an issue (server: GitHub)')).toBe('mcp:github');
    expect(group('Opens an issue. Part of the github MCP server.')).toBe('mcp:github');
    expect(group('List issues (server: github)', 'list_issues')).toBe(group('Opens an issue (server: GitHub)'));
    // "the MCP server" names no server; nor does a description without one.
    expect(group('Restarts the MCP server.')).toBe('tool:create_issue');
    expect(group('Opens an issue.')).toBe('tool:create_issue');
    // A name that carries its server wins over the description.
    expect(analyzeTool({ name: 'mcp__gh__create_issue', description: '(server: other)' }).group).toBe('mcp:gh');
  });

  test('createToolIndex takes the group from the field a catalogue names, or from a function', () => {
    const seen: string[][] = [];
    const spy: ToolRanker = {
      name: 'groups',
      prepare: (tools: readonly AnalyzedTool[]) => {
        seen.push(tools.map((t) => t.group));
        return () => tools.map(() => 1);
      },
    };
    const tools = [
      { name: 'create_issue', description: 'Opens an issue.', server: 'github' },
      { name: 'post_message', description: 'Posts a message.', server: '', group: 'chat' },
    ];
    createToolIndex(tools, { ranker: spy, groupField: 'server' });
    createToolIndex(tools, { ranker: spy, groupField: (t) => `fn:${t.name}` });
    expect(seen).toEqual([
      ['github', 'chat'],
      ['fn:create_issue', 'fn:post_message'],
    ]);
    expect(() => createToolIndex(tools, { groupField: 3 as unknown as string })).toThrow(
      /groupField must be a field name or a function, got number/,
    );
  });
});

describe('the array of scores a search hands its ranker', () => {
  test('is one array, zeroed before every search, so a query never sees the scores of the one before', () => {
    const seen: Float64Array[] = [];
    const dirty: ToolRanker = {
      name: 'dirty',
      prepare: (tools) => (query, scores) => {
        const out = scores ?? new Float64Array(tools.length);
        seen.push(out);
        expect([...out].every((s) => s === 0)).toBe(true);
        // Scores the tools whose name holds the query's first term, leaving its marks behind.
        tools.forEach((t, i) => {
          if (t.tool.name.toLowerCase().includes(query.terms[0]!)) out[i] = 1;
        });
        return out;
      },
    };
    const index = createToolIndex(catalogue, { ranker: dirty });
    expect(index.search('slack').map((h) => h.name)).toEqual(['mcp__slack__list_channels', 'mcp__slack__send_message']);
    expect(index.search('github').map((h) => h.name)).toEqual([
      'mcp__github__create_issue',
      'mcp__github__send_invite',
    ]);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[0]).toHaveLength(catalogue.length);
  });

  test('the default ranker gives the same results into a reused array as into fresh ones', () => {
    const queries = ['slack send message', 'read file', 'github issue', 'fetch url', 'jupyter cell', 'slack'];
    const reused = createToolIndex(catalogue);
    const results = queries.map((q) => reused.search(q, { maxResults: 8 }));
    const fresh = queries.map((q) => createToolIndex(catalogue).search(q, { maxResults: 8 }));
    expect(results).toEqual(fresh);
  });

  test('a ranker that returns its own array instead is read as before', () => {
    const own: ToolRanker = {
      name: 'own',
      prepare: (tools) => () => Float64Array.from(tools, (t) => (t.tool.name === 'Edit' ? 1 : 0)),
    };
    expect(createToolIndex(catalogue, { ranker: own }).search('anything')).toEqual([{ name: 'Edit', score: 1 }]);
  });
});
