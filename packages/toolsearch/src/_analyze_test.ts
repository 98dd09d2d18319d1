import { describe, expect, test } from 'vitest';
import {
  nameParts,
  operationTerms,
  phrases,
  requestCount,
  schemaText,
  splitWords,
  stem,
  surfaceTerms,
  terms,
  termsAndWords,
  leadEnd,
} from './_analyze.ts';

describe('name and text analysis', () => {
  test('splitWords splits camelCase, acronyms, snake_case, kebab-case and dots', () => {
    expect(splitWords('getHTTPResponse')).toEqual(['get', 'http', 'response']);
    expect(splitWords('send_slack-message.v2')).toEqual(['send', 'slack', 'message', 'v2']);
    expect(splitWords('NotebookEdit')).toEqual(['notebook', 'edit']);
    expect(splitWords('  ')).toEqual([]);
  });

  test('nameParts reads mcp__server__tool names as MCP tools of a server', () => {
    expect(nameParts('mcp__slack__send_message')).toMatchObject({
      words: ['slack', 'send', 'message'],
      isMcp: true,
      server: 'slack',
    });
    expect(nameParts('mcp__my-server__listThings')).toMatchObject({
      words: ['my', 'server', 'list', 'things'],
      isMcp: true,
      server: 'my-server',
    });
    expect(nameParts('WebFetch')).toMatchObject({ words: ['web', 'fetch'], isMcp: false, server: undefined });
    expect(nameParts('platform__getInventory').compounds).toEqual(['getinventory']);
  });

  test('stem merges plurals and verb forms but leaves short words and numbers alone', () => {
    expect(['messages', 'message'].map(stem)).toEqual(['messag', 'messag']);
    expect(['queries', 'query'].map(stem)).toEqual(['query', 'query']);
    expect(['searching', 'searched', 'searches', 'search'].map(stem)).toEqual(['search', 'search', 'search', 'search']);
    expect(['create', 'creates', 'created', 'creating'].map((w) => stem(w))).toEqual([
      'creat',
      'creat',
      'creat',
      'creat',
    ]);
    expect(['running', 'run'].map(stem)).toEqual(['run', 'run']);
    expect(stem('status')).toBe('status');
    expect(stem('bus')).toBe('bus');
    expect(stem('utf8s')).toBe('utf8s');
  });

  test('terms drops stopwords and one-letter words and stems the rest', () => {
    expect(terms('I want to send a message to the channels')).toEqual(['send', 'messag', 'channel']);
  });

  test('schemaText collects property names and descriptions, nested ones included', () => {
    const text = schemaText({
      type: 'object',
      properties: {
        file_path: { type: 'string', description: 'Absolute path' },
        options: { type: 'object', properties: { encoding: { type: 'string' } } },
      },
    });
    expect(text).toBe('file_path Absolute path options encoding');
    expect(schemaText(undefined)).toBe('');
  });
});

test('phrases are adjacent content words, stemmed, in order', () => {
  expect(phrases('Open a pull request')).toEqual(['open pull', 'pull request']);
  expect(phrases('Create pull requests')).toEqual(['creat pull', 'pull request']);
  expect(phrases('the')).toEqual([]);
});

test('requestCount tells a list of requests from one task in several steps', () => {
  expect(requestCount('Make a branch, change the README there, and then open a pull request')).toBe(1);
  expect(requestCount('What is the weather in Paris? Also, find me a hotel.')).toBe(3);
  expect(requestCount('Get the odds. Then list the fixtures!')).toBe(2);
  expect(requestCount('version 1.2 of node.js')).toBe(1);
  expect(requestCount('')).toBe(1);
});

test('surfaceTerms keeps the content words as written, not stemmed', () => {
  expect(surfaceTerms('Show the open Pull Requests of a repo')).toEqual(['show', 'open', 'pull', 'requests', 'repo']);
  expect(surfaceTerms('the a I')).toEqual([]);
});

test('operationTerms leaves out past participles, which describe rather than ask', () => {
  expect(operationTerms('dump everything stored in memory')).toEqual(['dump', 'everyth', 'memory']);
  expect(operationTerms('store a fact')).toEqual([stem('store'), 'fact']);
  expect(operationTerms('list stopped containers')).toEqual(['list', stem('containers')]);
  // Words that merely end in "ed" and are not stemmed as a participle stay.
  expect(operationTerms('speed of the feed')).toEqual(['speed', 'feed']);
});

test('termsAndWords gives in one scan what terms and surfaceTerms give, compounds first', () => {
  for (const text of ['Lists the open Pull Requests', 'getInventory of stores', 'Café menus, cafés', '', 'a I the']) {
    expect(termsAndWords(text)).toEqual({ terms: terms(text), words: surfaceTerms(text) });
  }
  expect(termsAndWords('call getInventory').terms[0]).toBe('getinventory');
});

test('stem gives the same stem for a word however often it is asked (it keeps what it computed)', () => {
  const words = ['messages', 'running', 'created', 'status', 'queries'];
  const first = words.map(stem);
  for (let i = 0; i < 3; i++) expect(words.map(stem)).toEqual(first);
  expect(first).toEqual(['messag', 'run', 'creat', 'status', 'query']);
});

test("leadEnd finds where a description's first sentence ends: a stop before a space, or a line break", () => {
  expect(leadEnd('Get the cities. Pass a country code to filter.')).toBe(15);
  expect(leadEnd('Notion | Search by title\nError Responses:\n400: Bad request')).toBe(24);
  expect(leadEnd('Returns v1.2 data! Then more')).toBe(18);
  expect(leadEnd('One sentence, no stop')).toBe(21);
  expect(leadEnd('')).toBe(0);
});

test('text with accents, curly quotes and dashes splits as ASCII text does, and a camelCase word counts once', () => {
  expect(splitWords('Café’s menuItems – ÉtéHiver, ǅemal 中文 v2')).toEqual([
    'café',
    's',
    'menu',
    'items',
    'été',
    'hiver',
    'ǆemal',
    '中文',
    'v2',
  ]);
  // The compound of a camelCase word before a non-ASCII character was counted twice.
  expect(terms('browseId – the album').filter((t) => t === 'browseid')).toHaveLength(1);
  // Outside the Basic Multilingual Plane (a surrogate pair) the words are the same.
  expect(splitWords('getItems 😀 Ünïcode')).toEqual(['get', 'items', 'ünïcode']);
});
