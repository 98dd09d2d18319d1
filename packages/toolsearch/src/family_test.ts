import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  contentToText,
  createSession,
  defineFamily,
  type Family,
  type Session,
  type ToolUseBlock,
} from '@toolshed/core';
import { checkFamily } from '@toolshed/core/testing';
import { toolSearch } from './mod.ts';
import { makeTool } from './testdata/tools.ts';

let dir: string;
const sessions: Session[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolsearch-family-'));
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function open(families: Family[]): Promise<Session> {
  const session = await createSession({ cwd: dir, stateDir: path.join(dir, 'state'), families });
  sessions.push(session);
  return session;
}

let seq = 0;
function search(query: string, extra: Record<string, unknown> = {}): ToolUseBlock {
  return { type: 'tool_use', id: `toolu_${++seq}`, name: 'ToolSearch', input: { query, ...extra } };
}

async function runOne(session: Session, block: ToolUseBlock): Promise<{ text: string; isError: boolean }> {
  const [result] = await session.run([block]);
  return { text: contentToText(result!.content), isError: result!.is_error === true };
}

const names = (session: Session) => session.toolsFor('anthropic').map((t) => t.name);

const builtins = () =>
  defineFamily({
    name: 'basic',
    version: '1.0.0',
    tools: [
      makeTool('Read', {
        description: 'Reads a file from the local filesystem.',
        searchHint: 'open view file contents',
      }),
      makeTool('Edit', { description: 'Replaces a string in a file.' }),
      makeTool('NotebookEdit', {
        description: 'Edits a cell of a Jupyter notebook.',
        shouldDefer: true,
        searchHint: 'jupyter ipynb cell',
      }),
      makeTool('Pinned', { description: 'Stays in the request whatever the mode.', alwaysLoad: true }),
    ],
  });

const mcp = () =>
  defineFamily({
    name: 'mcp',
    version: '1.0.0',
    external: true,
    tools: [
      makeTool('mcp__slack__send_message', {
        isMcp: true,
        description: 'Posts a message to a Slack channel.',
        properties: { channel: { type: 'string' }, text: { type: 'string' } },
      }),
      makeTool('mcp__slack__list_channels', { isMcp: true, description: 'Lists the channels of the Slack workspace.' }),
      makeTool('mcp__github__create_issue', {
        isMcp: true,
        description: 'Opens an issue in a GitHub repository.',
        properties: { title: { type: 'string' } },
      }),
      makeTool('mcp__github__send_invite', { isMcp: true, description: 'Invites a user to a GitHub organization.' }),
    ],
  });

describe('toolSearch family', () => {
  test('the search family passes the conformance check', async () => {
    const family = toolSearch();
    expect(family.name).toBe('search');
    expect(
      await checkFamily(family, {
        sampleInputs: { ToolSearch: [{ query: 'slack' }, { query: 'select:Read', max_results: 3 }] },
      }),
    ).toEqual([]);
  });

  test('toolSearch rejects an unknown mode and a threshold outside 0 to 1', () => {
    expect(() => toolSearch({ mode: 'sometimes' as 'auto' })).toThrow(/Unknown deferral mode "sometimes"/);
    expect(() => toolSearch({ threshold: 1.5 })).toThrow(/between 0 and 1, got 1.5/);
    expect(() => toolSearch({ contextWindow: 0 })).toThrow(/positive number of tokens/);
  });
});

describe('deferral in a session', () => {
  test('auto mode defers shouldDefer and MCP tools and keeps small built-ins, alwaysLoad and ToolSearch', async () => {
    const session = await open([builtins(), mcp(), toolSearch()]);
    expect(names(session)).toEqual(['Edit', 'Pinned', 'Read', 'ToolSearch']);
    const notice = session.deferredNotice();
    expect(notice).toContain('- basic: NotebookEdit');
    expect(notice).toContain('- MCP server slack: mcp__slack__{list_channels, send_message}');
    expect(notice).toContain('- MCP server github: mcp__github__{create_issue, send_invite}');
    expect(notice).toMatch(/ToolSearch with `select:/);
  });

  test('auto mode defers built-ins too, largest first, once the definitions pass the threshold', async () => {
    // A budget of 2 000 tokens (0.1 × 20 000), about 8 000 characters: ToolSearch and Tiny fit, Huge
    // (20 000 characters) does not, so Huge alone goes.
    const big = defineFamily({
      name: 'big',
      version: '1.0.0',
      tools: [makeTool('Huge', { description: 'x '.repeat(10_000) }), makeTool('Tiny', { description: 'Small tool.' })],
    });
    const session = await open([big, toolSearch({ contextWindow: 20_000, threshold: 0.1 })]);
    expect(names(session)).toEqual(['Tiny', 'ToolSearch']);
    expect(session.deferredNotice()).toContain('- big: Huge');

    // Nothing deferred: ToolSearch would have nothing to find, so it is left out of the request.
    const roomy = await open([big, toolSearch({ contextWindow: 200_000 })]);
    expect(names(roomy)).toEqual(['Huge', 'Tiny']);
    expect(roomy.deferredNotice()).toBe('');
  });

  test('always mode defers every tool except alwaysLoad ones and ToolSearch', async () => {
    const session = await open([builtins(), mcp(), toolSearch({ mode: 'always' })]);
    expect(names(session)).toEqual(['Pinned', 'ToolSearch']);
    expect(session.deferredNotice()).toContain('- basic: Edit, NotebookEdit, Read');
  });

  test('never mode defers nothing, not even shouldDefer and MCP tools', async () => {
    const session = await open([builtins(), mcp(), toolSearch({ mode: 'never' })]);
    // Every tool but ToolSearch, which is left out of the request while nothing is deferred (it can still be called).
    expect(names(session)).toHaveLength(8);
    expect(names(session)).not.toContain('ToolSearch');
    expect(session.deferredNotice()).toBe('');
    const { text } = await runOne(session, search('slack'));
    expect(text).toContain('No tools are deferred in this session');
  });

  test('the alwaysLoad option pins names the policy would otherwise defer', async () => {
    const session = await open([builtins(), mcp(), toolSearch({ mode: 'always', alwaysLoad: ['Read'] })]);
    expect(names(session)).toEqual(['Pinned', 'Read', 'ToolSearch']);
  });
});

describe('ToolSearch in a session', () => {
  test('select: loads tools by name and they stay in toolsFor for the rest of the session, byte-stable', async () => {
    const session = await open([builtins(), mcp(), toolSearch({ mode: 'always' })]);
    const before = JSON.stringify(session.toolsFor('anthropic'));
    expect(JSON.stringify(session.toolsFor('anthropic'))).toBe(before);

    const { text, isError } = await runOne(session, search('select:Read,mcp__slack__send_message'));
    expect(isError).toBe(false);
    expect(text).toContain(
      'Found 2 tools for "select:Read,mcp__slack__send_message". Loaded Read, mcp__slack__send_message.',
    );
    expect(text).toContain(
      '<function>{"description":"Posts a message to a Slack channel.","name":"mcp__slack__send_message","parameters":{"type":"object","properties":{"channel":{"type":"string"},"text":{"type":"string"}}}}</function>',
    );

    const after = session.toolsFor('anthropic');
    expect(after.map((t) => t.name)).toEqual(['Pinned', 'Read', 'ToolSearch', 'mcp__slack__send_message']);
    const stable = JSON.stringify(after);
    // Later requests, other calls and another load keep the earlier prefix byte for byte.
    expect(JSON.stringify(session.toolsFor('anthropic'))).toBe(stable);
    await session.run([{ type: 'tool_use', id: 'x1', name: 'Read', input: {} }]);
    expect(JSON.stringify(session.toolsFor('anthropic'))).toBe(stable);
    expect(session.deferredNotice()).not.toContain('Read,');
    expect(session.deferredNotice()).not.toContain('mcp__slack__send_message');

    const again = await runOne(session, search('select:Read'));
    expect(again.text).toContain('Read was loaded already');
    expect(JSON.stringify(session.toolsFor('anthropic'))).toBe(stable);
  });

  test('a keyword query loads the best matches and says which were loaded', async () => {
    const session = await open([builtins(), mcp(), toolSearch({ mode: 'always' })]);
    const { text } = await runOne(session, search('send a slack message', { max_results: 1 }));
    expect(text).toMatch(/^Found 1 tool matching "send a slack message"\. Loaded mcp__slack__send_message\./);
    expect(names(session)).toContain('mcp__slack__send_message');
    expect(names(session)).not.toContain('mcp__slack__list_channels');
  });

  test('a +word query keeps only tools whose name holds the word', async () => {
    const session = await open([builtins(), mcp(), toolSearch({ mode: 'always' })]);
    const { text } = await runOne(session, search('+github send'));
    expect(text).toContain('Loaded mcp__github__send_invite, mcp__github__create_issue.');
    expect(text).not.toContain('mcp__slack__send_message');
    const none = await runOne(session, search('+jira send'));
    expect(none.text).toContain('No deferred tool matches "+jira send"');
    expect(none.text).toContain('A "+word" must appear in the tool\'s name');
  });

  test('select: of an unknown name suggests the closest, and of a visible tool says it is already there', async () => {
    const session = await open([builtins(), mcp(), toolSearch()]);
    const { text, isError } = await runOne(session, search('select:NotebookEdt,Read'));
    expect(isError).toBe(false);
    expect(text).toContain('No tool is named "NotebookEdt". Did you mean "NotebookEdit"?');
    expect(text).toContain('Read is not deferred: already in your tool list');
    const lower = await runOne(session, search('select:notebookedit'));
    expect(lower.text).toContain('Loaded NotebookEdit.');
  });

  test('select: takes names split by commas or spaces, drops duplicates and empty entries, and reads case when only one tool fits', async () => {
    const session = await open([builtins(), mcp(), toolSearch({ mode: 'always' })]);
    const spaced = await runOne(session, search('select:  Read  Edit ,, Read,'));
    expect(spaced.isError).toBe(false);
    expect(spaced.text).toContain('Found 2 tools for "select:  Read  Edit ,, Read,". Loaded Read, Edit.');
    expect(spaced.text.match(/<function>/g)).toHaveLength(2);
    const upper = await runOne(session, search('SELECT:MCP__SLACK__LIST_CHANNELS'));
    expect(upper.text).toContain('Loaded mcp__slack__list_channels.');
    const mixed = await runOne(session, search('select:mcp__slack__send_message,mcp__slack__send'));
    expect(mixed.text).toContain('Loaded mcp__slack__send_message.');
    expect(mixed.text).toContain('No tool is named "mcp__slack__send". Did you mean "mcp__slack__send_message"');
    expect(names(session)).toEqual([
      'Edit',
      'Pinned',
      'Read',
      'ToolSearch',
      'mcp__slack__list_channels',
      'mcp__slack__send_message',
    ]);
  });

  test('select: of a name two tools share but for case loads neither and names both', async () => {
    const twins = defineFamily({ name: 'twins', version: '1.0.0', tools: [makeTool('Fetch'), makeTool('fetch')] });
    const session = await open([twins, toolSearch({ mode: 'always' })]);
    const { text } = await runOne(session, search('select:FETCH'));
    expect(text).toContain('No tool is named "FETCH". Did you mean');
    expect(text).toContain('"Fetch"');
    expect(text).toContain('"fetch"');
    expect(names(session)).toEqual(['ToolSearch']);
  });

  test('a query of stopwords or symbols says it has no word to search for; a huge one is not echoed back whole', async () => {
    const session = await open([builtins(), mcp(), toolSearch({ mode: 'always' })]);
    const stop = await runOne(session, search('the of and'));
    expect(stop.isError).toBe(false);
    expect(stop.text).toContain('"the of and" has no word to search for');
    expect(stop.text).toContain('select:<name>');
    const huge = await runOne(session, search(`zzqqx ${'%$#'.repeat(50_000)}`));
    expect(huge.text).toContain('No deferred tool matches "zzqqx %$#');
    expect(huge.text.length).toBeLessThan(2_000);
    const plus = await runOne(session, search('+ + +'));
    expect(plus.text).toContain('has no word to search for');
    expect(names(session)).toEqual(['Pinned', 'ToolSearch']);
  });

  test('an empty query is an error the model can act on, and a query of nonsense a clear no-match', async () => {
    const session = await open([builtins(), mcp(), toolSearch({ mode: 'always' })]);
    const empty = await runOne(session, search('   '));
    expect(empty.isError).toBe(true);
    expect(empty.text).toContain('The query is empty');
    const bareSelect = await runOne(session, search('select:'));
    expect(bareSelect.isError).toBe(true);
    expect(bareSelect.text).toContain('select: names no tool');

    const absurd = await runOne(session, search('qqqzzx !!! ??? ' + '%$#'.repeat(20_000)));
    expect(absurd.isError).toBe(false);
    expect(absurd.text).toContain('No deferred tool matches');
    expect(absurd.text).toContain('Deferred tools not yet loaded: Edit, NotebookEdit, Read, mcp__github__create_issue');
    expect(names(session)).toEqual(['Pinned', 'ToolSearch']);

    const bad = await runOne(session, search('slack', { max_results: 0 }));
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('`max_results`');
    const wrong = await runOne(session, { type: 'tool_use', id: 'w1', name: 'ToolSearch', input: { q: 'slack' } });
    expect(wrong.text).toContain('required parameter `query` is missing');
  });

  test('calling a deferred tool without searching loads it for later requests', async () => {
    const session = await open([builtins(), mcp(), toolSearch({ mode: 'always' })]);
    const { text } = await runOne(session, {
      type: 'tool_use',
      id: 'c1',
      name: 'mcp__github__create_issue',
      input: {},
    });
    expect(text).toBe('ran mcp__github__create_issue');
    expect(names(session)).toContain('mcp__github__create_issue');
  });

  test('nativeToolSearch marks deferred tools defer_loading and adds the server-side search tool', async () => {
    const session = await open([builtins(), mcp(), toolSearch()]);
    const tools = session.toolsFor('anthropic', { nativeToolSearch: 'regex' }) as {
      name: string;
      type?: string;
      defer_loading?: boolean;
    }[];
    expect(tools.find((t) => t.name === 'tool_search_tool_regex')).toEqual({
      type: 'tool_search_tool_regex_20251119',
      name: 'tool_search_tool_regex',
    });
    for (const visible of ['Edit', 'Read', 'Pinned'])
      expect(tools.find((t) => t.name === visible)?.defer_loading).toBeUndefined();
    // Without native search the same session's request is unchanged.
    expect(names(session)).toEqual(['Edit', 'Pinned', 'Read', 'ToolSearch']);
  });

  test('nativeToolSearch sends the deferred tools themselves with defer_loading: true', async () => {
    const session = await open([builtins(), mcp(), toolSearch()]);
    const tools = session.toolsFor('anthropic', { nativeToolSearch: 'bm25' }) as {
      name: string;
      defer_loading?: boolean;
    }[];
    expect(tools.find((t) => t.name === 'mcp__slack__send_message')?.defer_loading).toBe(true);
  });
});

describe('lazy families', () => {
  const counters = globalThis as { __toolsearchLazyPdfImports?: number; __toolsearchLazyChartImports?: number };
  const pdf = () =>
    defineFamily({
      name: 'pdf',
      version: '1.0.0',
      load: async () => (await import('./testdata/lazy_pdf_tools.ts')).tools,
      manifest: [
        { name: 'PdfExtract', description: 'Extracts the text of a PDF document.', searchHint: 'pdf text pages' },
        { name: 'PdfMerge', description: 'Merges PDF documents.', searchHint: 'pdf combine join' },
      ],
    });
  const chart = () =>
    defineFamily({
      name: 'chart',
      version: '1.0.0',
      load: async () => (await import('./testdata/lazy_chart_tools.ts')).tools,
      manifest: [{ name: 'ChartRender', description: 'Renders a chart to an image.', searchHint: 'plot graph' }],
    });

  test('a lazy family is not imported until ToolSearch selects one of its tools or it is called', async () => {
    const session = await open([builtins(), pdf(), chart(), toolSearch()]);
    expect(counters.__toolsearchLazyPdfImports).toBeUndefined();
    expect(session.deferredNotice()).toContain('- pdf: PdfExtract, PdfMerge');
    expect(session.deferredNotice()).toContain('- chart: ChartRender');

    // A search that matches other tools ranks the manifests only.
    const other = await runOne(session, search('jupyter notebook cell'));
    expect(other.text).toContain('Loaded NotebookEdit.');
    expect(counters.__toolsearchLazyPdfImports).toBeUndefined();
    expect(counters.__toolsearchLazyChartImports).toBeUndefined();

    // Matching the manifest's hint imports the family and returns the code's full definition.
    const found = await runOne(session, search('extract text from a pdf', { max_results: 1 }));
    expect(found.text).toContain('Loaded PdfExtract.');
    expect(found.text).toContain('"description":"Extracts the text of every page of a PDF document."');
    expect(found.text).toContain('"file_path":{"type":"string","description":"The PDF file"}');
    expect(counters.__toolsearchLazyPdfImports).toBe(1);
    expect(counters.__toolsearchLazyChartImports).toBeUndefined();
    expect(names(session)).toContain('PdfExtract');
    expect(names(session)).not.toContain('PdfMerge');
    // Once imported, the lazy tool's definition is the code's, the same on every request, and
    // loading a sibling later adds it without changing a byte of the definitions already sent.
    const request = session.toolsFor('anthropic').map((t) => JSON.stringify(t));
    expect(session.toolsFor('anthropic').map((t) => JSON.stringify(t))).toEqual(request);
    expect(session.deferredNotice()).toContain('- pdf: PdfMerge');
    await runOne(session, search('select:PdfMerge'));
    const later = session.toolsFor('anthropic').map((t) => JSON.stringify(t));
    expect(later.filter((t) => !t.includes('"name":"PdfMerge"'))).toEqual(request);
    expect(later).toHaveLength(request.length + 1);
    expect(session.deferredNotice()).not.toContain('- pdf:');

    // Calling a lazy tool directly imports its family too.
    const called = await runOne(session, { type: 'tool_use', id: 'l1', name: 'ChartRender', input: {} });
    expect(called.text).toBe('ran ChartRender');
    expect(counters.__toolsearchLazyChartImports).toBe(1);
    expect(counters.__toolsearchLazyPdfImports).toBe(1);
  });
});
