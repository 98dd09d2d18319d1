import { afterEach, expect, test } from 'vitest';
import { startFakeModelServer, type FakeApi, type FakeModelServer, type FakeScript } from './testing/mod.ts';
import {
  ModelError,
  type ModelAdapter,
  type ModelStreamEvent,
  type ModelTurn,
  type ModelTurnRequest,
} from './model_adapter.ts';

/** Makes an adapter with the real SDK pointed at the fake server. */
export type MakeAdapter = (
  server: FakeModelServer,
  options: { maxRetries: number; idleTimeoutMs?: number | undefined },
) => ModelAdapter;

const readTool = {
  name: 'Read',
  description: 'Reads a file',
  input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
};

async function collect(
  model: ModelAdapter,
  request: ModelTurnRequest,
): Promise<{ events: ModelStreamEvent[]; turn: ModelTurn }> {
  const events: ModelStreamEvent[] = [];
  for await (const e of model.stream(request)) events.push(e);
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('the stream did not end with done');
  return { events, turn: done.turn };
}

/** The same behaviour, tested for each adapter through its real SDK. */
export function adapterSuite(api: FakeApi, make: MakeAdapter): void {
  let server: FakeModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const start = async (script: FakeScript, maxRetries = 0, idleTimeoutMs?: number) => {
    server = await startFakeModelServer(script);
    return make(server, { maxRetries, idleTimeoutMs });
  };
  const request = (): ModelTurnRequest => ({
    system: 'Be brief.',
    messages: [{ role: 'user', content: 'Read a.txt' }],
    tools: [readTool],
  });
  const reply = {
    content: [
      { type: 'text' as const, text: 'Reading it.' },
      { type: 'tool_use' as const, id: 'call_1', name: 'Read', input: { file_path: 'a.txt' } },
    ],
    usage: { inputTokens: 12, outputTokens: 7 },
  };

  test(`${api}: a whole turn gives text, the tool call, the stop reason and the usage`, async () => {
    const model = await start([reply]);
    const turn = await model.turn(request());
    expect(turn.content).toEqual([
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 'call_1', name: 'Read', input: { file_path: 'a.txt' } },
    ]);
    expect(turn.stopReason).toBe('tool_use');
    expect(turn.usage).toEqual({ inputTokens: 12, outputTokens: 7 });
    expect(server!.requests[0]!.api).toBe(api);
    expect(JSON.stringify(server!.requests[0]!.body)).toContain('Be brief.');
  });

  test(`${api}: a streamed turn yields text pieces, then the tool call, then done`, async () => {
    const model = await start([reply]);
    const { events, turn } = await collect(model, request());
    expect(server!.requests[0]!.stream).toBe(true);
    expect(
      events
        .filter((e) => e.type === 'text')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('Reading it.');
    expect(events.map((e) => e.type).filter((t, i, a) => t !== a[i - 1])).toEqual(['text', 'tool_use', 'done']);
    expect(turn.content).toEqual(reply.content);
    expect(turn.stopReason).toBe('tool_use');
    expect(turn.usage).toEqual({ inputTokens: 12, outputTokens: 7 });
  });

  test(`${api}: a 429 is retried by the SDK and the turn succeeds`, async () => {
    const model = await start(
      [{ error: { status: 429, message: 'slow down' } }, { content: [{ type: 'text', text: 'ok' }] }],
      2,
    );
    expect((await model.turn(request())).content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server!.requests).toHaveLength(2);
  });

  test(`${api}: a 500 with no retries left is a ModelError naming the status`, async () => {
    const model = await start([{ error: { status: 500, message: 'boom' } }]);
    const error = await model.turn(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).status).toBe(500);
    expect((error as Error).message).toMatch(/HTTP 500/);
    const streamed = await collect(model, request()).catch((e: unknown) => e);
    expect(streamed).toBeInstanceOf(ModelError);
  });

  test(`${api}: malformed tool arguments are kept as the raw text`, async () => {
    const bad = {
      content: [{ type: 'tool_use' as const, id: 'call_9', name: 'Read', rawInput: '{"file_path": "a.txt"' }],
    };
    const model = await start([bad, bad]);
    const { turn } = await collect(model, request());
    expect(turn.content).toEqual([{ type: 'tool_use', id: 'call_9', name: 'Read', input: '{"file_path": "a.txt"' }]);
  });

  test(`${api}: a reply cut off at max tokens stops with max_tokens and leaves the unfinished call out`, async () => {
    const cut = {
      content: [
        { type: 'text' as const, text: 'Let me' },
        { type: 'tool_use' as const, id: 'call_2', name: 'Read', input: { file_path: 'a-long-name.txt' } },
      ],
      stopReason: 'max_tokens' as const,
    };
    const model = await start([cut, cut]);
    const { events, turn } = await collect(model, request());
    expect(turn.stopReason).toBe('max_tokens');
    expect(turn.content).toEqual([{ type: 'text', text: 'Let me' }]);
    expect(events.some((e) => e.type === 'tool_use')).toBe(false);
    const whole = await model.turn(request());
    expect(whole.stopReason).toBe('max_tokens');
    expect(whole.content.some((b) => b.type === 'tool_use')).toBe(false);
  });

  test(`${api}: a tool call is yielded while the rest of the turn is still being written`, async () => {
    let release!: () => void;
    const until = new Promise<void>((resolve) => (release = resolve));
    const model = await start([
      {
        content: [
          { type: 'tool_use', id: 'call_1', name: 'Read', input: { file_path: 'a.txt' } },
          { type: 'text', text: 'more' },
        ],
        pause: { afterBlock: 0, until },
      },
    ]);
    const order: string[] = [];
    for await (const event of model.stream(request())) {
      order.push(event.type);
      if (event.type === 'tool_use') {
        order.push('released');
        release();
      }
    }
    expect(order.indexOf('tool_use')).toBeLessThan(order.indexOf('done'));
    expect(order.filter((t, i, a) => t !== a[i - 1])).toEqual(['tool_use', 'released', 'text', 'done']);
  });

  test(`${api}: an aborted request ends with an abort, not a ModelError`, async () => {
    const model = await start([reply]);
    const controller = new AbortController();
    controller.abort();
    const error = await model.turn({ ...request(), signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ModelError);
  });

  test(`${api}: a stream the connection cuts before the turn's end is a ModelError, not a finished turn`, async () => {
    const model = await start([{ ...reply, cutStream: 'close' }]);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const e of model.stream(request())) seen.push(e.type);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toMatch(/stream ended before the turn was complete/);
    expect(seen).not.toContain('done');
  });

  test(`${api}: a stream that goes silent fails after the idle timeout and closes the connection`, async () => {
    const model = await start([{ ...reply, cutStream: 'stall' }], 0, 300);
    const started = Date.now();
    const error = await collect(model, request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toMatch(/sent nothing for 0\.3 s/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test(`${api}: a silent stream still ends at once on the caller's abort`, async () => {
    const model = await start([{ ...reply, cutStream: 'stall' }], 0, 60_000);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 200);
    const error = await collect(model, { ...request(), signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ModelError);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test(`${api}: a provider's error text is bounded and its control characters are escaped`, async () => {
    const hostile = `\u001b]0;pwned\u0007\u001b[2J${'x'.repeat(50_000)}`;
    const model = await start([
      { error: { status: 500, message: hostile } },
      { ...reply, streamError: { message: hostile } },
    ]);
    for (const attempt of [model.turn(request()), collect(model, request())]) {
      const error = await attempt.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelError);
      const message = (error as Error).message;
      expect(message.length).toBeLessThan(2_000);
      expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(message).toContain('\\u001b]0;pwned');
      expect(message).toMatch(/more characters/);
    }
  });

  test(`${api}: an HTTP 200 whose body is not JSON, or not a reply, is a ModelError that says so`, async () => {
    const bodies = ['{"content": [', '<html>Bad gateway</html>', 'null', '[]', '{"unexpected": true}'];
    const model = await start(bodies.map((rawBody) => ({ rawBody })));
    for (const body of bodies) {
      const error = await model.turn(request()).catch((e: unknown) => e);
      expect(error, body).toBeInstanceOf(ModelError);
      expect((error as Error).message, (error as Error).message).toMatch(
        /not what the .* API replies.*check the base URL/i,
      );
    }
  });

  test(`${api}: a stream that writes on past what max tokens allows is cut off with a ModelError`, async () => {
    const model = await start([{ content: [{ type: 'text', text: 'a'.repeat(10_000) }] }]);
    const error = await collect(model, { ...request(), maxTokens: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toMatch(/wrote more than 3200 characters in one turn, past what max tokens 100/);
  });

  test(`${api}: a consumer slow to read the next event is not taken for a silent endpoint`, async () => {
    const model = await start([reply], 0, 100);
    const types: string[] = [];
    for await (const event of model.stream(request())) {
      types.push(event.type);
      if (types.length === 1) await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(types.at(-1)).toBe('done');
  });
}
