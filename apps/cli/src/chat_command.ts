import { contentToText, type Session, type SessionMetrics } from '@toolshed/core';
import {
  renderChecklist,
  runAgent,
  todoWriteInput,
  type AgentEvent,
  type AgentMessage,
  type ModelAdapter,
  type ModelUsage,
  type RunAgentResult,
} from '@toolshed/tool-agent';
import type { CommandInvocation } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { chatModel } from './_chat_model.ts';
import { createPrompter, type Prompter } from './_prompter.ts';
import { readStdin } from './_read_input.ts';
import { withSession } from './session_from_args.ts';
import { UsageError } from './usage_error.ts';
import { terminalAskUser } from './_terminal_ask_user.ts';
import { slashPrompt } from './_slash_prompt.ts';
import { toolUseSummary } from './_tool_summary.ts';
import { askInChat } from './_chat_permission_prompt.ts';
import { escapeUnprintable, printableMessage } from './_printable.ts';

function systemPrompt(session: Session): string {
  return `You are a coding agent working in ${session.cwd} through the tools you are given. Read before you change anything, keep changes small, and say briefly what you did.`;
}

function maxTurnsOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--max-turns "${value}" is not a whole number above 0; write for example --max-turns 20.`, {
      command: 'chat',
    });
  return n;
}

/**
 * `toolshed chat`: an interactive agent in the terminal, or with `-p` one prompt answered
 * non-interactively (`--json` for the whole run).
 *
 * @param invocation The prompt words and the flags.
 * @param io The CLI's streams.
 * @returns 0 when done; 1 when the model failed (or, with -p, the run did not end normally); 2 a
 *   usage error (no model configured); 130 when Ctrl-C ended the chat.
 *
 * @example
 * ```ts
 * import type { CliIo, CommonArgs } from '@toolshed/cli';
 * import { chatCommand } from './chat_command.ts';
 * declare const args: CommonArgs;
 * declare const io: CliIo;
 *
 * await chatCommand({ positionals: ['What is in src?'], args: { ...args, print: true } }, io);
 * ```
 */
export async function chatCommand(invocation: CommandInvocation, io: CliIo): Promise<number> {
  const { args, positionals } = invocation;
  const model = chatModel(args, io.env ?? process.env);
  const maxTurns = maxTurnsOf(args.maxTurns);
  if (args.print) {
    const prompt = positionals.length ? positionals.join(' ') : await readStdin(io);
    if (!prompt.trim())
      throw new UsageError(
        'toolshed -p needs a prompt: toolshed -p "What does src/main.ts do?" (or the prompt on stdin).',
        { command: 'chat' },
      );
    return withSession(args, io, { run: (session) => printOnce(session, model, prompt, maxTurns, io, args.json) });
  }
  const prompter = createPrompter(io);
  const always = new Set<string>();
  try {
    return await withSession(args, io, {
      run: (session) => interactive(session, model, prompter, maxTurns, io, positionals.join(' ')),
      canUseTool: (getSession) => (io.isTTY ? askInChat({ prompter, io, always, getSession }) : undefined),
      ...(io.isTTY ? { askUser: terminalAskUser(prompter, io) } : {}),
    });
  } finally {
    prompter.close();
  }
}

async function printOnce(
  session: Session,
  model: ModelAdapter,
  prompt: string,
  maxTurns: number | undefined,
  io: CliIo,
  json: boolean,
): Promise<number> {
  const result = await runAgent({ session, model, system: systemPrompt(session), prompt, maxTurns, signal: io.signal });
  if (json) {
    io.stdout.write(
      `${JSON.stringify(
        {
          text: result.text,
          stopReason: result.stopReason,
          ...(result.error ? { error: result.error } : {}),
          model: model.model,
          provider: model.provider,
          usage: result.usage,
          turns: result.turns,
          toolCalls: result.toolCalls,
          durationMs: Math.round(result.durationMs),
          metrics: session.metrics(),
          messages: result.messages,
        },
        null,
        2,
      )}\n`,
    );
  } else if (result.text) io.stdout.write(`${printableMessage(result.text.replace(/\n*$/, ''))}\n`);
  if (result.stopReason === 'end_turn') return 0;
  io.stderr.write(`toolshed: ${printableMessage(stopMessage(result))}\n`);
  return result.stopReason === 'aborted' ? 130 : 1;
}

function stopMessage(result: RunAgentResult): string {
  switch (result.stopReason) {
    case 'model_error':
      return result.error ?? 'the model failed';
    case 'max_turns':
      return `the agent stopped after ${result.turns.length} turns (--max-turns); ask again to go on`;
    case 'max_tokens':
      return 'the answer was cut off at the max tokens of a turn';
    case 'aborted':
      return 'the turn was aborted';
    default:
      return `the agent stopped: ${result.stopReason}`;
  }
}

async function interactive(
  session: Session,
  model: ModelAdapter,
  prompter: Prompter,
  maxTurns: number | undefined,
  io: CliIo,
  first: string,
): Promise<number> {
  const tools = session.toolsFor(model.format).length;
  io.stderr.write(
    `toolshed chat: ${model.provider} ${model.model}, ${tools} tools in ${session.cwd}. Ctrl-C aborts a turn; Ctrl-C at the prompt, /exit or end of input quits.\n`,
  );
  let history: AgentMessage[] = [];
  let turn: AbortController | undefined;
  let code = 0;
  let quit = false;
  const usage: ModelUsage = { inputTokens: 0, outputTokens: 0 };
  let modelTurns = 0;
  const interrupt = () => {
    if (turn && !turn.signal.aborted) {
      turn.abort();
      io.stderr.write('\ntoolshed: the turn is aborted (Ctrl-C again to exit)\n');
      return;
    }
    quit = true;
    code = 130;
    prompter.close();
  };
  const off = io.onInterrupt?.(interrupt);
  const onSignal = () => interrupt();
  io.signal?.addEventListener('abort', onSignal, { once: true });
  try {
    let pending: string | undefined = first.trim() || undefined;
    while (!quit) {
      const line = pending ?? (await prompter.ask('\n> '));
      pending = undefined;
      if (line === undefined || quit) break;
      const text = line.trim();
      if (!text) continue;
      if (text === '/exit' || text === '/quit') break;
      // `/mcp__server__prompt ARG…`: the MCP server's prompt is the message (as in Claude Code).
      const slash = text.startsWith('/mcp__') ? await slashPrompt(session, text) : undefined;
      if (slash && 'error' in slash) {
        // The error quotes what the MCP server sent (its argument names, its error text).
        io.stderr.write(`toolshed: ${printableMessage(slash.error)}\n`);
        continue;
      }
      turn = new AbortController();
      const view = new TurnView(session, io);
      const result = await runAgent({
        session,
        model,
        system: systemPrompt(session),
        messages: history,
        prompt: slash?.text ?? text,
        maxTurns,
        signal: turn.signal,
        onEvent: (e) => view.show(e),
      });
      view.end();
      turn = undefined;
      history = result.messages;
      usage.inputTokens += result.usage.inputTokens;
      usage.outputTokens += result.usage.outputTokens;
      modelTurns += result.turns.length;
      if (result.stopReason !== 'end_turn') io.stderr.write(`toolshed: ${printableMessage(stopMessage(result))}\n`);
    }
  } finally {
    off?.();
    io.signal?.removeEventListener('abort', onSignal);
  }
  io.stderr.write(`\n${metricsLine(session.metrics(), usage, modelTurns)}\n`);
  return code;
}

/**
 * Writes a turn as it happens: the model's text, then each call and its outcome, with the
 * spinner (in a terminal) naming the calls still running.
 */
class TurnView {
  #atLineStart = true;
  readonly #inputs = new Map<string, unknown>();
  /** The calls started and not yet ended, with what the spinner says of each. */
  readonly #running = new Map<string, string>();

  constructor(
    readonly session: Session,
    readonly io: CliIo,
  ) {}

  show(event: AgentEvent): void {
    this.#spin(event);
    // What the model writes, a tool's output and a notice may carry escape codes a file or a page
    // put there (a clipboard write, a title change, a cleared screen): each is printed escaped.
    if (event.type === 'text') {
      this.io.stdout.write(printableMessage(event.text));
      this.#atLineStart = event.text.endsWith('\n');
    } else if (event.type === 'session' && event.event.type === 'tool_start') {
      this.#inputs.set(event.event.toolUseId, event.event.input);
      this.#line(`● ${this.#render(event.event.toolName, event.event.input)}`);
    } else if (
      event.type === 'session' &&
      event.event.type === 'result' &&
      event.event.toolName === 'TodoWrite' &&
      !event.event.result.is_error
    ) {
      // The todo list is shown whole, as a checklist, each time the model changes it.
      const todos = todoWriteInput.safeParse(this.#inputs.get(event.event.toolUseId));
      if (todos.success)
        for (const line of renderChecklist(todos.data.todos).split('\n')) this.#line(`  ${escapeUnprintable(line)}`);
    } else if (event.type === 'session' && event.event.type === 'result') {
      const text = contentToText(event.event.result.content).trim().split('\n');
      const first = (text[0] ?? '').slice(0, 120);
      const more = text.length > 1 ? ` (+${text.length - 1} lines)` : '';
      this.#line(`  ⎿ ${event.event.result.is_error ? 'error: ' : ''}${escapeUnprintable(first)}${more}`);
    } else if (event.type === 'session' && event.event.type === 'notice') {
      this.#line(`toolshed: ${event.event.level}: ${printableMessage(event.event.message)}`, this.io.stderr);
    }
  }

  end(): void {
    this.#running.clear();
    this.io.spinner?.stop();
    if (!this.#atLineStart) this.io.stdout.write('\n');
    this.#atLineStart = true;
  }

  #spin(event: AgentEvent): void {
    if (!this.io.spinner || event.type !== 'session') return;
    if (event.event.type === 'tool_start') {
      const { toolName, toolUseId, input } = event.event;
      const label = `${toolName} ${toolUseSummary(this.session, { name: toolName, input })}`.trimEnd();
      this.#running.set(toolUseId, escapeUnprintable(label));
    } else if (event.event.type === 'result') {
      this.#running.delete(event.event.toolUseId);
    } else {
      return;
    }
    const running = [...this.#running.values()];
    if (running.length === 0) this.io.spinner.stop();
    else this.io.spinner.start(running.length === 1 ? running[0]! : `${running.length} calls running`);
  }

  #line(text: string, sink = this.io.stdout): void {
    if (!this.#atLineStart) this.io.stdout.write('\n');
    sink.write(`${text}\n`);
    this.#atLineStart = true;
  }

  #render(name: string, input: unknown): string {
    const tool = this.session.catalog().find((e) => e.name === name)?.tool;
    try {
      const parsed = tool?.inputSchema.safeParse(input);
      // The title may be an MCP server's and the input the model's: shown with their escape codes escaped.
      if (tool && parsed?.success)
        return escapeUnprintable(`${tool.userFacingName(parsed.data)}: ${tool.renderToolUse(parsed.data)}`);
    } catch {
      // A renderer is a courtesy; fall back to the raw input.
    }
    return escapeUnprintable(`${name} ${JSON.stringify(input).slice(0, 120)}`);
  }
}

function metricsLine(metrics: SessionMetrics, usage: ModelUsage, turns: number): string {
  const tools = Object.entries(metrics.tools)
    .map(([name, m]) => `${name} ${m.calls}${m.errors ? ` (${m.errors} failed)` : ''}`)
    .join(', ');
  return (
    `Session: ${metrics.total.calls} tool call${metrics.total.calls === 1 ? '' : 's'}${tools ? ` (${tools})` : ''}, ${metrics.total.errors} failed; ` +
    `model: ${turns} turn${turns === 1 ? '' : 's'}, ${usage.inputTokens} tokens in, ${usage.outputTokens} out.`
  );
}
