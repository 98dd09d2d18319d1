import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Which API a request spoke. */
export type FakeApi = 'anthropic' | 'openai-chat' | 'openai-responses';

/** A block the fake model writes. */
export type FakeBlock =
  | { type: 'text'; text: string }
  /** `rawInput` is sent as the arguments text instead of `input` (a malformed tool call). */
  | { type: 'tool_use'; id?: string; name: string; input?: unknown; rawInput?: string };

/** One scripted reply, rendered in whichever API the request used. */
export interface FakeReply {
  content?: FakeBlock[];
  /** @default 'tool_use' when a tool_use is in `content`, else 'end_turn' */
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens';
  /** @default { inputTokens: 10, outputTokens: 5 } */
  usage?: { inputTokens: number; outputTokens: number };
  /** Answer with this HTTP error instead (429s carry `retry-after-ms: 1`). */
  error?: { status: number; message?: string };
  /**
   * The model writes on after the block at `afterBlock`: a streamed reply waits for `until`
   * after that block before sending the rest (a call can start meanwhile); a whole reply waits
   * for it before it is sent at all.
   */
  pause?: { afterBlock: number; until: Promise<unknown> };
  /**
   * A streamed reply that never finishes: `'close'` ends the connection before the turn's last
   * event (`message_stop`, the finish chunk and `[DONE]`, `response.completed`); `'stall'` keeps
   * it open, sending nothing more, until the client gives up or the server closes.
   */
  cutStream?: 'close' | 'stall';
  /** Answer HTTP 200 with this body as `application/json`, whatever the request (a broken proxy). */
  rawBody?: string;
  /** A streamed reply sends this SSE event (Anthropic `error`, OpenAI `error`) after its blocks, then ends. */
  streamError?: { message: string };
}

/** A request the fake server received. */
export interface FakeRequest {
  api: FakeApi;
  /** The parsed JSON body. */
  body: Record<string, unknown>;
  stream: boolean;
  /** 0 for the first request. */
  index: number;
}

/** A script: replies in order, or a function of the request. */
export type FakeScript = readonly FakeReply[] | ((request: FakeRequest) => FakeReply | Promise<FakeReply>);

/** A running fake model server. */
export interface FakeModelServer {
  /** `http://127.0.0.1:<port>`: the Anthropic SDK's `baseURL`. */
  readonly url: string;
  /** `<url>/v1`: the OpenAI SDK's `baseURL`. */
  readonly openaiBaseURL: string;
  /** Every request so far. */
  readonly requests: FakeRequest[];
  close(): Promise<void>;
}

let ids = 0;
const newId = (prefix: string) => `${prefix}_${(++ids).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/**
 * Starts a loopback HTTP server (127.0.0.1, port 0) that speaks the Anthropic Messages API,
 * OpenAI Chat Completions and OpenAI Responses — whole and streamed (SSE) — from a script, so
 * the real SDKs can be tested against it: scripted tool calls, HTTP errors (a 429 then
 * success, a 500), malformed tool arguments, replies cut off at max tokens.
 *
 * @param script Replies in order, or a function of the request.
 * @returns The server; `close()` it.
 *
 * @example
 * ```ts
 * import { anthropicModel } from '@toolshed/tool-agent';
 * import { startFakeModelServer } from '@toolshed/tool-agent/testing';
 * import Anthropic from '@anthropic-ai/sdk';
 *
 * const server = await startFakeModelServer([{ content: [{ type: 'text', text: 'Hello' }] }]);
 * const client = new Anthropic({ apiKey: 'test', baseURL: server.url });
 * await anthropicModel({ client, model: 'claude-test' }).turn({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
 * await server.close();
 * ```
 */
export async function startFakeModelServer(script: FakeScript): Promise<FakeModelServer> {
  const requests: FakeRequest[] = [];
  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake model server: ${(e as Error).message}` } }));
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = req.url ?? '';
    const api: FakeApi | undefined = url.endsWith('/messages')
      ? 'anthropic'
      : url.endsWith('/chat/completions')
        ? 'openai-chat'
        : url.endsWith('/responses')
          ? 'openai-responses'
          : undefined;
    if (req.method !== 'POST' || !api) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake model server: no route ${req.method} ${url}` } }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    const request: FakeRequest = { api, body, stream: body.stream === true, index: requests.length };
    requests.push(request);
    const reply = typeof script === 'function' ? await script(request) : script[request.index];
    if (!reply)
      return sendError(res, api, 500, `fake model server: no scripted reply for request ${request.index + 1}`);
    if (reply.error)
      return sendError(res, api, reply.error.status, reply.error.message ?? `scripted HTTP ${reply.error.status}`);
    if (reply.rawBody !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(reply.rawBody);
      return;
    }
    const model = String(body.model ?? 'fake-model');
    const renderer = api === 'anthropic' ? anthropic : api === 'openai-chat' ? openaiChat : openaiResponses;
    if (!request.stream) {
      if (reply.pause) await reply.pause.until;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(renderer.whole(reply, model)));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const step of renderer.stream(reply, model)) {
      if (step.type === 'pause') await step.until;
      else if (step.end && (reply.cutStream || reply.streamError)) break;
      else res.write(step.text);
    }
    if (reply.streamError) res.write(errorEvent(api, reply.streamError.message));
    // Held open: the client's abort or the server's close ends it.
    if (reply.cutStream === 'stall') return;
    res.end();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    openaiBaseURL: `${url}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendError(res: ServerResponse, api: FakeApi, status: number, message: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (status === 429) headers['retry-after-ms'] = '1';
  res.writeHead(status, headers);
  res.end(
    JSON.stringify(
      api === 'anthropic'
        ? { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } }
        : { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } },
    ),
  );
}

function errorEvent(api: FakeApi, message: string): string {
  const data =
    api === 'anthropic'
      ? { type: 'error', error: { type: 'overloaded_error', message } }
      : api === 'openai-chat'
        ? { error: { message, type: 'server_error', code: null } }
        : { type: 'error', code: 'server_error', message, param: null, sequence_number: 999 };
  return api === 'openai-chat'
    ? `data: ${JSON.stringify(data)}\n\n`
    : `event: error\ndata: ${JSON.stringify(data)}\n\n`;
}

/** `end` marks the events that finish a turn (left out of a cut stream). */
type Step = { type: 'write'; text: string; end?: boolean } | { type: 'pause'; until: Promise<unknown> };

interface Renderer {
  whole(reply: FakeReply, model: string): unknown;
  stream(reply: FakeReply, model: string): Generator<Step>;
}

const stopOf = (reply: FakeReply) =>
  reply.stopReason ?? ((reply.content ?? []).some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
const usageOf = (reply: FakeReply) => reply.usage ?? { inputTokens: 10, outputTokens: 5 };
const argsOf = (b: Extract<FakeBlock, { type: 'tool_use' }>) => b.rawInput ?? JSON.stringify(b.input ?? {});
const halves = (s: string): string[] =>
  s.length < 2 ? [s] : [s.slice(0, Math.ceil(s.length / 2)), s.slice(Math.ceil(s.length / 2))];
const withIds = (reply: FakeReply) =>
  (reply.content ?? []).map((b) => (b.type === 'tool_use' ? { ...b, id: b.id ?? newId('toolu') } : b));
/** A reply cut off at max tokens stops in the middle of its last tool call. */
const cutLast = (reply: FakeReply) =>
  stopOf(reply) === 'max_tokens' && (reply.content ?? []).at(-1)?.type === 'tool_use';

const anthropic: Renderer = {
  whole(reply, model) {
    const blocks = withIds(reply);
    if (cutLast(reply)) blocks.pop();
    const content = blocks.map((b) =>
      b.type === 'text'
        ? { type: 'text', text: b.text }
        : { type: 'tool_use', id: b.id, name: b.name, input: b.input ?? {} },
    );
    const usage = usageOf(reply);
    return {
      id: newId('msg'),
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopOf(reply),
      stop_sequence: null,
      usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
    };
  },
  *stream(reply, model) {
    const sse = (event: string, data: unknown): Step => ({
      type: 'write',
      text: `event: ${event}\ndata: ${JSON.stringify({ type: event, ...(data as object) })}\n\n`,
    });
    const usage = usageOf(reply);
    yield sse('message_start', {
      message: {
        id: newId('msg'),
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.inputTokens, output_tokens: 1 },
      },
    });
    const blocks = withIds(reply);
    for (const [index, b] of blocks.entries()) {
      const last = index === blocks.length - 1;
      if (b.type === 'text') {
        yield sse('content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (const part of halves(b.text))
          yield sse('content_block_delta', { index, delta: { type: 'text_delta', text: part } });
      } else {
        yield sse('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} },
        });
        const args = argsOf(b);
        const parts = last && cutLast(reply) ? [args.slice(0, Math.floor(args.length / 2))] : halves(args);
        for (const part of parts)
          yield sse('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } });
        if (last && cutLast(reply)) break;
      }
      yield sse('content_block_stop', { index });
      if (reply.pause?.afterBlock === index) yield { type: 'pause', until: reply.pause.until };
    }
    yield {
      ...sse('message_delta', {
        delta: { stop_reason: stopOf(reply), stop_sequence: null },
        usage: { output_tokens: usage.outputTokens },
      }),
      end: true,
    };
    yield { ...sse('message_stop', {}), end: true };
  },
};

const finishOf = (reply: FakeReply) =>
  ({ tool_use: 'tool_calls', max_tokens: 'length', end_turn: 'stop' })[stopOf(reply)];

const openaiChat: Renderer = {
  whole(reply, model) {
    const blocks = withIds(reply);
    if (cutLast(reply)) blocks.pop();
    const text = blocks
      .filter((b) => b.type === 'text')
      .map((b) => b.text)
      .join('');
    const calls = blocks
      .filter((b) => b.type === 'tool_use')
      .map((b) => ({ id: b.id, type: 'function', function: { name: b.name, arguments: argsOf(b) } }));
    const usage = usageOf(reply);
    return {
      id: newId('chatcmpl'),
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) },
          finish_reason: finishOf(reply),
          logprobs: null,
        },
      ],
      usage: {
        prompt_tokens: usage.inputTokens,
        completion_tokens: usage.outputTokens,
        total_tokens: usage.inputTokens + usage.outputTokens,
      },
    };
  },
  *stream(reply, model) {
    const id = newId('chatcmpl');
    const chunk = (choices: unknown[], extra: object = {}): Step => ({
      type: 'write',
      text: `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices, ...extra })}\n\n`,
    });
    const delta = (d: object, finish: string | null = null) => chunk([{ index: 0, delta: d, finish_reason: finish }]);
    yield delta({ role: 'assistant', content: '' });
    const blocks = withIds(reply);
    let callIndex = 0;
    for (const [index, b] of blocks.entries()) {
      const last = index === blocks.length - 1;
      if (b.type === 'text') for (const part of halves(b.text)) yield delta({ content: part });
      else {
        const args = argsOf(b);
        const parts = last && cutLast(reply) ? [args.slice(0, Math.floor(args.length / 2))] : halves(args);
        yield delta({
          tool_calls: [
            { index: callIndex, id: b.id, type: 'function', function: { name: b.name, arguments: parts[0] } },
          ],
        });
        for (const part of parts.slice(1))
          yield delta({ tool_calls: [{ index: callIndex, function: { arguments: part } }] });
        callIndex++;
      }
      if (reply.pause?.afterBlock === index) yield { type: 'pause', until: reply.pause.until };
    }
    yield { ...delta({}, finishOf(reply)), end: true };
    const usage = usageOf(reply);
    yield {
      ...chunk([], {
        usage: {
          prompt_tokens: usage.inputTokens,
          completion_tokens: usage.outputTokens,
          total_tokens: usage.inputTokens + usage.outputTokens,
        },
      }),
      end: true,
    };
    yield { type: 'write', text: 'data: [DONE]\n\n', end: true };
  },
};

function responseObject(reply: FakeReply, model: string, output: unknown[], status: string): Record<string, unknown> {
  const usage = usageOf(reply);
  return {
    id: newId('resp'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model,
    status,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    error: null,
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: {
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      total_tokens: usage.inputTokens + usage.outputTokens,
    },
  };
}

function responseItems(reply: FakeReply): Record<string, unknown>[] {
  return withIds(reply).map((b) =>
    b.type === 'text'
      ? {
          type: 'message',
          id: newId('msg'),
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: b.text, annotations: [] }],
        }
      : {
          type: 'function_call',
          id: newId('fc'),
          call_id: b.id,
          name: b.name,
          arguments: argsOf(b),
          status: 'completed',
        },
  );
}

const openaiResponses: Renderer = {
  whole(reply, model) {
    const items = responseItems(reply);
    if (cutLast(reply)) items.pop();
    return responseObject(reply, model, items, stopOf(reply) === 'max_tokens' ? 'incomplete' : 'completed');
  },
  *stream(reply, model) {
    let seq = 0;
    const sse = (type: string, data: object): Step => ({
      type: 'write',
      text: `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`,
    });
    yield sse('response.created', { response: responseObject(reply, model, [], 'in_progress') });
    const items = responseItems(reply);
    const done: unknown[] = [];
    for (const [index, item] of items.entries()) {
      if (index === items.length - 1 && cutLast(reply)) break;
      yield sse('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress' } });
      if (item.type === 'message') {
        const text = (item.content as { text: string }[])[0]!.text;
        for (const part of halves(text))
          yield sse('response.output_text.delta', {
            output_index: index,
            item_id: item.id,
            content_index: 0,
            delta: part,
          });
      } else {
        yield sse('response.function_call_arguments.delta', {
          output_index: index,
          item_id: item.id,
          delta: item.arguments,
        });
      }
      yield sse('response.output_item.done', { output_index: index, item });
      done.push(item);
      if (reply.pause?.afterBlock === index) yield { type: 'pause', until: reply.pause.until };
    }
    const incomplete = stopOf(reply) === 'max_tokens';
    yield {
      ...sse(incomplete ? 'response.incomplete' : 'response.completed', {
        response: responseObject(reply, model, done, incomplete ? 'incomplete' : 'completed'),
      }),
      end: true,
    };
  },
};
