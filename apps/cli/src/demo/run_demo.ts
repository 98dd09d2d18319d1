import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { contentToText, createSession, type PermissionDecision, type Session, type SessionEvent } from '@toolshed/core';
import { fileTools } from '@toolshed/tool-fs';
import { shellTools } from '@toolshed/tool-shell';
import { webTools } from '@toolshed/tool-web';
import { toolSearch } from '@toolshed/toolsearch';
import { mcpServers } from '@toolshed/mcp-bridge';
import { agentTools } from '@toolshed/tool-agent';
import { demoScript } from './demo_script.ts';
import { startDocsServer } from './docs_server.ts';
import { copySampleRepo, TRACKER_SERVER } from './sample_repo.ts';
import { scriptedExplorer } from './scripted_model.ts';

/** One call of the demo, as the summary table shows it. */
export interface DemoCall {
  turn: number;
  id: string;
  tool: string;
  call: string;
  /** allow / ask / deny, or undefined when the call ended before the permission step. */
  decision: PermissionDecision['behavior'] | undefined;
  /** The deciding rule, or the reason's short form. */
  why: string;
  ok: boolean;
  durationMs: number;
  /** Where the result budget saved the whole output, and its size. */
  persisted?: { path: string; bytes: number };
  /** The first line of the result. */
  firstLine: string;
}

/** What {@linkcode runDemo} returns. */
export interface DemoReport {
  repoDir: string;
  /** Tool names in the first request, and the deferred ones. */
  requestTools: string[];
  deferredTools: string[];
  turns: { narration: string; peakParallel: number; calls: DemoCall[] }[];
  /** The greeting after the agent's edit. */
  greetingAfter: string;
  docsServerHits: number;
  metrics: ReturnType<Session['metrics']>;
}

/** Options of {@linkcode runDemo}. */
export interface RunDemoOptions {
  /** Called as each turn starts and ends, for live output. */
  onTurn?: (
    event:
      | { kind: 'start'; index: number; narration: string }
      | { kind: 'end'; index: number; calls: DemoCall[]; peakParallel: number },
  ) => void;
  /** Lines of the generated build log. @default 6000 */
  logLines?: number;
  /** Keep the repository copy (the default removes it). @default false */
  keep?: boolean;
}

/**
 * Runs the bundled agent session on a fresh copy of the sample repository: every turn of
 * {@linkcode demoScript} goes through a real session with the fs, shell, web, search and MCP
 * families (an issue-tracker MCP server over stdio); permission rules (`Edit(./src/**)` and `WebFetch(domain:127.0.0.1)` allowed,
 * `Read(./.env)` and `Bash(rm:*)` denied); deferred tools (the tracker's, and WebFetch run against a
 * loopback docs server) loaded by ToolSearch; and the result budget. Needs no network and no API key.
 *
 * @param options Live-output callback and sizes.
 * @returns What happened, call by call.
 *
 * @example
 * ```ts
 * import { runDemo } from './run_demo.ts';
 *
 * const report = await runDemo({ onTurn: (e) => console.log(e) });
 * console.log(report.greetingAfter);
 * ```
 */
export async function runDemo(options: RunDemoOptions = {}): Promise<DemoReport> {
  const repo = await copySampleRepo(options.logLines === undefined ? {} : { logLines: options.logLines });
  const docs = await startDocsServer(path.join(repo.dir, 'docs'));
  let session: Session | undefined;
  try {
    session = await createSession({
      cwd: repo.dir,
      stateDir: path.join(repo.dir, '.toolshed-state'),
      families: [
        fileTools(),
        shellTools(),
        webTools({ allowPrivateHosts: [docs.host] }),
        // The sub-agent's model is scripted (no key, no network); the sub-agent runs for real.
        agentTools({
          model: scriptedExplorer(),
          agentFiles: [],
          tasks: { tasksDir: path.join(repo.dir, '.toolshed-state', 'tasks') },
        }),
        toolSearch({
          mode: 'always',
          alwaysLoad: ['Read', 'Edit', 'Write', 'Glob', 'Grep', 'Bash', 'TodoWrite', 'Agent'],
        }),
        // Our own bundled server: its readOnlyHint may decide (an unknown server's would not).
        mcpServers({
          mcpServers: { tracker: { command: process.execPath, args: [TRACKER_SERVER], trust: 'readOnlyHint' } },
        }),
      ],
      permissions: {
        mode: 'default',
        allow: ['Edit(./src/**)', 'WebFetch(domain:127.0.0.1)'],
        deny: ['Read(./.env)', 'Bash(rm:*)'],
      },
    });
    const requestTools = session.toolsFor('anthropic').map((t) => t.name);
    const deferredTools = session
      .catalog()
      .filter((e) => e.deferred)
      .map((e) => e.name);
    const turns: DemoReport['turns'] = [];
    const script = demoScript(docs.url('/guide.html'));
    for (const [index, turn] of script.entries()) {
      options.onTurn?.({ kind: 'start', index, narration: turn.narration });
      const { calls, peakParallel } = await runTurn(session, turn.blocks, index + 1);
      turns.push({ narration: turn.narration, peakParallel, calls });
      options.onTurn?.({ kind: 'end', index, calls, peakParallel });
    }
    return {
      repoDir: repo.dir,
      requestTools,
      deferredTools,
      turns,
      greetingAfter:
        (await readFile(path.join(repo.dir, 'src', 'greeting.ts'), 'utf8'))
          .split('\n')
          .find((l) => l.includes('return')) ?? '',
      docsServerHits: docs.hits(),
      metrics: session.metrics(),
    };
  } finally {
    await session?.close();
    await docs.close();
    if (!options.keep) await repo.dispose();
  }
}

async function runTurn(
  session: Session,
  blocks: Parameters<Session['run']>[0],
  turn: number,
): Promise<{ calls: DemoCall[]; peakParallel: number }> {
  const decisions = new Map<string, PermissionDecision>();
  const calls: DemoCall[] = [];
  let running = 0;
  let peakParallel = 0;
  const byId = new Map(blocks.map((b) => [b.id, b]));
  for await (const event of session.stream(blocks) as AsyncIterable<SessionEvent>) {
    if (event.type === 'tool_start') peakParallel = Math.max(peakParallel, ++running);
    if (event.type === 'permission_decision') decisions.set(event.toolUseId, event.decision);
    if (event.type !== 'result') continue;
    running = Math.max(0, running - 1);
    const block = byId.get(event.toolUseId)!;
    const decision = decisions.get(event.toolUseId);
    const text = contentToText(event.result.content);
    const call: DemoCall = {
      turn,
      id: event.toolUseId,
      tool: event.toolName,
      call:
        session
          .catalog()
          .find((e) => e.name === block.name)
          ?.tool?.renderToolUse(block.input) ?? block.name,
      decision: decision?.behavior,
      why: decision
        ? decision.rule
          ? `rule ${decision.rule}`
          : shortReason(decision.reason)
        : 'ended before the permission step',
      ok: event.result.is_error !== true,
      durationMs: event.durationMs,
      firstLine: text.split('\n').find((l) => l.trim() !== '' && !/^<\/?persisted-output>$/.test(l.trim())) ?? '',
    };
    if (event.persistedPath)
      call.persisted = { path: event.persistedPath, bytes: (await stat(event.persistedPath)).size };
    calls.push(call);
  }
  return { calls, peakParallel };
}

function shortReason(reason: string): string {
  if (/read-only/i.test(reason)) return 'read-only';
  if (/own permission/i.test(reason)) return "the tool's own check";
  if (/private host|allowPrivateHosts|opened/i.test(reason)) return 'host opened';
  return reason.length > 40 ? `${reason.slice(0, 37)}...` : reason;
}
