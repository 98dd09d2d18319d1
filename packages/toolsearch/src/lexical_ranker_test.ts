import { describe, expect, test } from 'vitest';
import { lexicalRanker } from './lexical_ranker.ts';
import { analyzeQuery, analyzeTool, createToolIndex } from './tool_index.ts';

function scoresOf(
  tools: { name: string; description: string; searchHint?: string }[],
  query: string,
  options = {},
): Record<string, number> {
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
    const s = scoresOf(
      [
        { name: 'mcp__srv__deploy', description: 'x' },
        { name: 'srv_deploy', description: 'x' },
      ],
      'deploy',
      { fieldWeights: { name: 0 } },
    );
    expect(s.mcp__srv__deploy! / s.srv_deploy!).toBeCloseTo(12 / 10, 5);
  });

  test('keywordWeight 0 leaves plain field-weighted BM25, which still finds the tool', () => {
    const s = scoresOf(
      [
        { name: 'weather_now', description: 'Current weather.' },
        { name: 'news', description: 'Headlines.' },
      ],
      'weather',
      { keywordWeight: 0 },
    );
    expect(s.weather_now).toBeGreaterThan(0);
    expect(s.news).toBe(0);
  });

  test('the group match lifts the siblings of a tool whose group is about the query', () => {
    const tools = [
      { name: 'Betting__upcoming_events', description: 'Upcoming events.' },
      { name: 'Betting__odds', description: 'Pre-match odds of an event.' },
      { name: 'Concerts__upcoming_events', description: 'Upcoming events.' },
    ];
    const ranked = createToolIndex(tools, { ranker: lexicalRanker() })
      .search('upcoming events with their odds', { maxResults: 3 })
      .map((h) => h.name);
    expect(ranked.indexOf('Betting__upcoming_events')).toBeLessThan(ranked.indexOf('Concerts__upcoming_events'));
  });

  test('diversity orders the first results of a list of requests so that they cover its different needs', () => {
    const tools = [
      { name: 'weather_today', description: 'Weather forecast for today: temperature, rain and wind.' },
      { name: 'weather_week', description: 'Weather forecast for the week: temperature, rain and wind per day.' },
      { name: 'flight_search', description: 'Search for flights to a city.' },
      ...['stocks', 'news', 'translate', 'music', 'recipes'].map((name) => ({
        name,
        description: `Unrelated ${name} tool.`,
      })),
    ];
    const list = 'What is the weather forecast, temperature, rain and wind? Also find flights.';
    const plain = createToolIndex(tools, { ranker: lexicalRanker({ diversity: 0 }) }).search(list, { maxResults: 3 });
    const diverse = createToolIndex(tools, { ranker: lexicalRanker({ diversity: 0.3 }) }).search(list, {
      maxResults: 3,
    });
    expect(plain.map((h) => h.name).indexOf('flight_search')).toBe(2);
    expect(diverse.map((h) => h.name).indexOf('flight_search')).toBeLessThan(2);
    expect(diverse.map((h) => h.name).sort()).toEqual(plain.map((h) => h.name).sort());
    // One request in one sentence is one task: its steps' tools are not pushed apart.
    const task = 'weather forecast temperature rain wind and flights';
    expect(
      createToolIndex(tools, { ranker: lexicalRanker({ diversity: 0.3 }) }).search(task, { maxResults: 3 }),
    ).toEqual(createToolIndex(tools, { ranker: lexicalRanker({ diversity: 0 }) }).search(task, { maxResults: 3 }));
  });

  test('a phrase matched in order outranks the same two words apart', () => {
    const tools = [
      { name: 'create_review', description: 'Create a review on a pull request.' },
      { name: 'request_pull', description: 'Send a request to pull the latest data into a review queue.' },
    ];
    const s = scoresOf(tools, 'review the pull request', { phraseWeight: 0.25, feedbackWeight: 0 });
    const off = scoresOf(tools, 'review the pull request', { phraseWeight: 0, feedbackWeight: 0 });
    expect(s.create_review! - off.create_review!).toBeGreaterThan(0);
    expect(s.request_pull).toBe(off.request_pull);
  });

  test('pseudo-relevance feedback reaches, for a task statement, a tool that shares no word with it', () => {
    const tools = [
      {
        name: 'kubectl_get',
        description: 'Get or list Kubernetes resources such as pods in a namespace of the cluster.',
      },
      { name: 'kubectl_logs', description: 'Logs of Kubernetes pods in a namespace of the cluster.' },
      { name: 'describe_resource', description: 'Kubernetes namespace cluster resource details.' },
      { name: 'recipes', description: 'Cooking recipes.' },
    ];
    const task = 'show every pod and the logs in staging, which one keeps crashing and restarting?';
    expect(scoresOf(tools, task, { feedbackWeight: 0 }).describe_resource).toBe(0);
    const s = scoresOf(tools, task, { feedbackWeight: 0.2 });
    expect(s.describe_resource).toBeGreaterThan(0);
    expect(s.recipes).toBe(0);
    // A short query is not expanded.
    expect(scoresOf(tools, 'pod logs', { feedbackWeight: 0.2 }).describe_resource).toBe(0);
  });

  test("the sibling lift, when asked for, moves the best result's siblings up for a task statement only", () => {
    const tools = [
      { name: 'mcp__gh__create_branch', description: 'Create a branch in a repository.' },
      { name: 'mcp__gh__create_pull_request', description: 'Open a pull request in a repository.' },
      { name: 'mcp__other__pull_weather', description: 'Pull the weather forecast for a city.' },
    ];
    const task = 'make a branch for the fix in the repository, then open a pull request and pull the change';
    const off = scoresOf(tools, task, { siblingWeight: 0 });
    const on = scoresOf(tools, task, { siblingWeight: 0.3 });
    // The best result keeps its score; its sibling gains 30 %.
    const ratios = [
      on.mcp__gh__create_pull_request! / off.mcp__gh__create_pull_request!,
      on.mcp__gh__create_branch! / off.mcp__gh__create_branch!,
    ].sort();
    expect(ratios[0]).toBeCloseTo(1, 5);
    expect(ratios[1]).toBeCloseTo(1.3, 5);
    expect(on.mcp__other__pull_weather).toBe(off.mcp__other__pull_weather);
    expect(scoresOf(tools, 'branch pull request', { siblingWeight: 0.3 })).toEqual(
      scoresOf(tools, 'branch pull request', { siblingWeight: 0 }),
    );
  });
  test('a request verb finds the tool named with its API verb, at less than the word itself', () => {
    const tools = [
      { name: 'delete_branch', description: 'Deletes a branch.' },
      { name: 'remove_branch_protection', description: 'Removes the protection rules of a branch.' },
      { name: 'list_branches', description: 'Lists the branches.' },
    ];
    // Words as written off: "branch" as written is in delete_branch, not in list_branches.
    const s = scoresOf(tools, 'remove a branch', { surfaceWeight: 0 });
    // "remove" reaches delete_branch through the verb list, which plain words do not.
    expect(s.delete_branch!).toBeGreaterThan(s.list_branches!);
    expect(scoresOf(tools, 'remove a branch', { synonymWeight: 0, surfaceWeight: 0 }).delete_branch!).toBeCloseTo(
      s.list_branches!,
      6,
    );
    // The tool that says the query's own word still ranks first.
    expect(s.remove_branch_protection!).toBeGreaterThan(s.delete_branch!);
    // A query that already holds the synonym does not count it twice.
    const both = scoresOf(tools, 'remove or delete a branch');
    const plain = scoresOf(tools, 'remove or delete a branch', { synonymWeight: 0 });
    expect(both.delete_branch!).toBeCloseTo(plain.delete_branch!, 6);
    // A task statement (8+ content words) names its tools in other words too: no synonyms.
    const task = 'remove the stale release branch after the hotfix merged into production yesterday';
    expect(scoresOf(tools, task).delete_branch!).toBeCloseTo(
      scoresOf(tools, task, { synonymWeight: 0 }).delete_branch!,
      6,
    );
  });

  test('"store" and "save" ask for a create or add tool; a past participle ("stored") names no operation', () => {
    const tools = [
      { name: 'add_note', description: 'Adds a note to the notebook.' },
      { name: 'read_notebook', description: 'Reads the notebook.' },
    ];
    // Neither tool says "store": the verb list is all that tells them apart.
    const store = scoresOf(tools, 'store a note in the notebook', { surfaceWeight: 0 });
    expect(store.add_note!).toBeGreaterThan(store.read_notebook!);
    const save = scoresOf(tools, 'save a note', { surfaceWeight: 0 });
    expect(save.add_note!).toBeGreaterThan(
      scoresOf(tools, 'save a note', { surfaceWeight: 0, synonymWeight: 0 }).add_note!,
    );
    // "everything stored in the notebook" is about what is there, not a request to add: no synonyms.
    const stored = 'everything stored in the notebook';
    expect(scoresOf(tools, stored)).toEqual(scoresOf(tools, stored, { synonymWeight: 0 }));
    // The same holds for other verbs: "stopped" containers are a list, not a request to stop one.
    const containers = [
      { name: 'kill_container', description: 'Kills a running container.' },
      { name: 'list_containers', description: 'Lists containers.' },
    ];
    expect(scoresOf(containers, 'list stopped containers')).toEqual(
      scoresOf(containers, 'list stopped containers', { synonymWeight: 0 }),
    );
    expect(scoresOf(containers, 'stop a container').kill_container!).toBeGreaterThan(
      scoresOf(containers, 'stop a container', { synonymWeight: 0 }).kill_container!,
    );
  });

  test('a tool that holds the query word as written gains over one that holds only its stem', () => {
    // Stemming makes "stocks" and "stock" one term; the words as written tell shares from footage.
    const tools = [
      { name: 'footage', description: 'Short videos made from stock footage.' },
      { name: 'markets', description: 'Latest prices of stocks and bonds.' },
    ];
    const on = scoresOf(tools, 'best stocks to buy');
    const off = scoresOf(tools, 'best stocks to buy', { surfaceWeight: 0 });
    expect(on.footage!).toBeCloseTo(off.footage!, 9);
    expect(on.markets!).toBeGreaterThan(off.markets!);
    expect(on.markets!).toBeGreaterThan(on.footage!);
    // A plural asks for the tool named in the plural: a list of pull requests, not one.
    const prs = [
      { name: 'pull_request', description: 'One pull request by its number.' },
      { name: 'pull_requests', description: 'Pull requests by state.' },
    ];
    const list = scoresOf(prs, 'open pull requests');
    expect(list.pull_requests!).toBeGreaterThan(list.pull_request!);
    const one = scoresOf(prs, 'that pull request');
    expect(one.pull_request!).toBeGreaterThan(one.pull_requests!);
    // A word no tool holds as written adds nothing, and a query of only such words still scores by stems.
    expect(scoresOf(tools, 'stocking')).toEqual(scoresOf(tools, 'stocking', { surfaceWeight: 0 }));
  });

  test('a first search reads only the tools that hold its words: no index of word pairs or words as written over the catalogue', () => {
    const tools = [
      ...Array.from({ length: 2000 }, (_, i) =>
        analyzeTool({ name: `tool_${i}`, description: `Turns widget ${i} into gadgets for the shelf.` }),
      ),
      analyzeTool({ name: 'create_pull_request', description: 'Open a pull request from a branch.' }),
      analyzeTool({ name: 'list_pull_requests', description: 'Lists the pull requests of a repository.' }),
    ];
    let counting = false;
    const read = new Set<number>();
    // Each tool watched: which ones a search looks at after the index was prepared.
    const watched = tools.map(
      (t, i) =>
        new Proxy(t, {
          get(target, key, receiver) {
            if (counting) read.add(i);
            return Reflect.get(target, key, receiver);
          },
        }),
    );
    const scorer = lexicalRanker().prepare(watched);
    counting = true;
    const scores = scorer(analyzeQuery('open the pull requests of my repository')!);
    expect(scores[2001]).toBeGreaterThan(scores[2000]!);
    expect(read.size).toBeLessThanOrEqual(2);
    // A later search of other words reads no more than the tools that hold them.
    scorer(analyzeQuery('a pull request from the branch')!);
    expect(read.size).toBeLessThanOrEqual(2);
  });

  test("a description's first sentence (what the tool does) counts more than the rest (how to call it)", () => {
    const tools = [
      {
        name: 'conditions',
        description: 'Current weather for a city. Air quality is added where a station reports it.',
      },
      { name: 'readings', description: 'Current air quality for a city. Weather is added where a station reports it.' },
    ];
    const s = scoresOf(tools, 'weather');
    expect(s.conditions!).toBeGreaterThan(s.readings!);
    // Read whole, the two descriptions say "weather" alike.
    const whole = scoresOf(tools, 'weather', { fieldWeights: { descriptionRest: 1 } });
    expect(whole.conditions!).toBeCloseTo(whole.readings!, 9);
  });

  test('a catalogue entry whose description or hint is not a string is still searched, by its name', () => {
    const tools = [
      { name: 'list_stocks', description: null, searchHint: 42 },
      { name: 'other', description: 'Something else.' },
    ] as unknown as { name: string; description: string }[];
    const index = createToolIndex(tools);
    expect(index.search('stocks').map((h) => h.name)).toEqual(['list_stocks']);
  });
});
