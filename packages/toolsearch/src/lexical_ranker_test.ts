import { describe, expect, test } from 'vitest';
import { lexicalRanker } from './lexical_ranker.ts';
import { analyzeQuery, analyzeTool, createToolIndex } from './tool_index.ts';

function scoresOf(tools: { name: string; description: string; searchHint?: string }[], query: string, options = {}): Record<string, number> {
  const scorer = lexicalRanker({ diversity: 0, groupWeight: 0, ...options }).prepare(tools.map(analyzeTool));
  const scores = scorer(analyzeQuery(query)!);
  return Object.fromEntries(tools.map((t, i) => [t.name, scores[i]!]));
}

describe('lexicalRanker', () => {
  test("the keyword points alone are Claude Code's: whole name word 10, part of one 5, hint 4, description 2", () => {
    const s = scoresOf(
      [
        { name: 'mail_send', description: 'x' },
        { name: 'gmail_send', description: 'x' },
        { name: 'post', description: 'x', searchHint: 'mail' },
        { name: 'other', description: 'mail' },
        { name: 'none', description: 'nothing' },
      ],
      'mail',
      { fieldWeights: { name: 0, hint: 0, description: 0, parameters: 0 } },
    );
    const unit = s.other! / 2;
    expect(unit).toBeGreaterThan(0);
    expect([s.mail_send, s.gmail_send, s.post, s.other].map((x) => Math.round(x! / unit))).toEqual([10, 5, 4, 2]);
    expect(s.none).toBe(0);
  });

  test('with BM25 added, a whole name word still outranks every other kind of match', () => {
    const s = scoresOf(
      [
        { name: 'mail_send', description: 'x' },
        { name: 'gmail_send', description: 'x' },
        { name: 'post', description: 'x', searchHint: 'mail' },
        { name: 'other', description: 'mail' },
      ],
      'mail',
    );
    expect(s.mail_send).toBeGreaterThan(Math.max(s.gmail_send!, s.post!, s.other!));
    expect(s.post).toBeGreaterThan(s.other!);
  });

  test('an MCP tool earns more for the same name word than a built-in (12 against 10)', () => {
    const s = scoresOf([{ name: 'mcp__srv__deploy', description: 'x' }, { name: 'srv_deploy', description: 'x' }], 'deploy', { fieldWeights: { name: 0 } });
    expect(s.mcp__srv__deploy! / s.srv_deploy!).toBeCloseTo(12 / 10, 5);
  });

  test('keywordWeight 0 leaves plain field-weighted BM25, which still finds the tool', () => {
    const s = scoresOf([{ name: 'weather_now', description: 'Current weather.' }, { name: 'news', description: 'Headlines.' }], 'weather', { keywordWeight: 0 });
    expect(s.weather_now).toBeGreaterThan(0);
    expect(s.news).toBe(0);
  });

  test('the group match lifts the siblings of a tool whose group is about the query', () => {
    const tools = [
      { name: 'Betting__upcoming_events', description: 'Upcoming events.' },
      { name: 'Betting__odds', description: 'Pre-match odds of an event.' },
      { name: 'Concerts__upcoming_events', description: 'Upcoming events.' },
    ];
    const ranked = createToolIndex(tools, { ranker: lexicalRanker() }).search('upcoming events with their odds', { maxResults: 3 }).map((h) => h.name);
    expect(ranked.indexOf('Betting__upcoming_events')).toBeLessThan(ranked.indexOf('Concerts__upcoming_events'));
  });

  test('diversity orders the first results so that they cover different words of the query', () => {
    const tools = [
      { name: 'weather_today', description: 'Weather forecast for today: temperature, rain and wind.' },
      { name: 'weather_week', description: 'Weather forecast for the week: temperature, rain and wind per day.' },
      { name: 'flight_search', description: 'Search for flights to a city.' },
      ...['stocks', 'news', 'translate', 'music', 'recipes'].map((name) => ({ name, description: `Unrelated ${name} tool.` })),
    ];
    const plain = createToolIndex(tools, { ranker: lexicalRanker({ diversity: 0 }) }).search('weather forecast temperature rain wind and flights', { maxResults: 3 });
    const diverse = createToolIndex(tools, { ranker: lexicalRanker({ diversity: 0.3 }) }).search('weather forecast temperature rain wind and flights', { maxResults: 3 });
    expect(plain.map((h) => h.name).indexOf('flight_search')).toBe(2);
    expect(diverse.map((h) => h.name).indexOf('flight_search')).toBeLessThan(2);
    expect(diverse.map((h) => h.name).sort()).toEqual(plain.map((h) => h.name).sort());
  });
});
