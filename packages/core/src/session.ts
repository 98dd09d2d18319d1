import type { ToolUseBlock } from './blocks.ts';
import { childOptionsOf } from './_child_options.ts';
import { explainCall } from './_explain_call.ts';
import { runFamilySetups } from './_family_setup.ts';
import { NoticeHub } from './_notice_hub.ts';
import { createToolsFor } from './_request_tools.ts';
import { budgetRunResults, createStreamDelivery, type DeliveryOptions } from './_result_delivery.ts';
import { closeSession } from './_session_close.ts';
import { resolveSessionConfig, type SessionConfig } from './_session_config.ts';
import { createTurnRunner, type SessionState } from './_turn_runner.ts';
import { AsyncQueue } from './_async_queue.ts';
import { childSessionKey } from './child_session.ts';
import { deferredNoticeText } from './deferred_notice.ts';
import { ToolshedError } from './errors.ts';
import { defineFamily, type Family } from './family.ts';
import type { CallOutcome } from './pipeline.ts';
import { ToolPool } from './pool.ts';
import { deniedQuoteGuard } from './results/denied_quote_guard.ts';
import { FileStateCache } from './results/file_state_cache.ts';
import { SavedResults } from './results/saved_results.ts';
import { savedOutputReaders } from './results/saved_output_hint.ts';
import { sessionResultsDir } from './permissions/own_results.ts';
import { MetricsRecorder } from './results/metrics.ts';
import { DEFAULT_TURN_BUDGET_CHARS } from './results/result_budget.ts';
import { createServices } from './services.ts';
import type { Session, SessionEvent, SessionOptions } from './session_types.ts';
import { DEFAULT_MAX_RESULT_SIZE_CHARS, type ToolCatalog } from './tool.ts';

/**
 * Creates a session: assembles the pool from the families, and returns the object an agent
 * loop talks to — `toolsFor` for the request, `run`/`stream` for the model's `tool_use`
 * blocks.
 *
 * @param options Working directory, families, permissions, hooks and the rest.
 * @returns The session.
 * @throws {ToolshedError} `settings_invalid` when a settings file of `settingsSources` (or
 * `settingsFiles`) does not parse or has an unknown key, a bad rule, a bad mode or a bad hook
 * (the message names the file, the key, the value and the fix); `permission_rule_invalid` or
 * `permission_options_invalid` when the `permissions` option is wrong. A bad rule never
 * silently loosens anything.
 *
 * @example
 * ```ts
 * import type Anthropic from '@anthropic-ai/sdk';
 * import { createSession, type Family } from '@toolshed/core';
 * declare function fileTools(): Family; // a tool family (tool-fs's fileTools)
 * declare const response: Anthropic.Message;
 *
 * const session = await createSession({
 *   cwd: process.cwd(),
 *   families: [fileTools()],
 *   permissions: { mode: 'default', allow: ['Read'], deny: ['Read(./.env)'] },
 * });
 * const tools = session.toolsFor('anthropic');
 * const results = await session.run(response.content.filter((b) => b.type === 'tool_use'));
 * ```
 */
export async function createSession(options: SessionOptions): Promise<Session> {
  const config = await resolveSessionConfig(options);
  const { id, cwd, stateDir, settings, permissions } = config;
  const services = createServices(options.services);
  const notices = new NoticeHub(settings.warnings);
  const cleanups: (() => void | Promise<void>)[] = [];
  const families: Family[] = [...(options.families ?? [])];
  if (options.tools?.length) families.push(defineFamily({ name: 'custom', version: '0.0.0', tools: options.tools }));
  const notice = (level: 'info' | 'warn' | 'error', message: string) => notices.notice(level, message);
  const pool = new ToolPool({ families, permissions, cwd, notice, features: options.features ?? {} });
  const state: SessionState = {
    closed: false,
    context: {
      sessionId: id,
      cwd,
      stateDir,
      toolUseId: '',
      signal: options.signal ?? new AbortController().signal,
      fileState: new FileStateCache(),
      permissions,
      ...(Object.keys(settings.env).length > 0 ? { env: settings.env } : {}),
      projectTrusted: config.projectTrusted,
      tools: catalogOf(pool),
      services,
      onClose: (cleanup) => void cleanups.push(cleanup),
    },
  };
  services.set(childSessionKey, {
    open: async (child = {}) => {
      if (state.closed)
        throw new ToolshedError('session_closed', 'The session is closed; no child session can be opened from it');
      return createSession(childOptionsOf({ options, config, pool, context: state.context }, child));
    },
  });
  const familySettings = settings.familySettings;
  // How to use the tools of a name prefix (an MCP server's instructions), for the deferred notice.
  const instructions = new Map<string, string>();
  await runFamilySetups(families, {
    sessionId: id,
    cwd,
    stateDir,
    services,
    permissions,
    pool,
    notices,
    cleanups,
    familySettings,
    instructions,
  });
  await pool.assemble();
  return sessionObject({
    options,
    config,
    pool,
    notices,
    cleanups,
    state,
    instructions,
    metrics: new MetricsRecorder(),
  });
}

/** The parts a session object is made of (see {@linkcode sessionObject}). */
interface SessionParts {
  options: SessionOptions;
  config: SessionConfig;
  pool: ToolPool;
  notices: NoticeHub;
  cleanups: (() => void | Promise<void>)[];
  state: SessionState;
  instructions: ReadonlyMap<string, string>;
  metrics: MetricsRecorder;
}

/** The object an agent loop talks to, over the session's assembled parts. */
function sessionObject(parts: SessionParts): Session {
  const { options, config, pool, notices, state, metrics } = parts;
  // What this session saved, for close() (a stateDir the caller chose keeps everything else) and
  // for the own-results allowance, which takes only these files, unchanged since.
  // A child session shares its parent's: each reads what the other saved, and the parent removes them.
  const persisted = config.savedResults
    ? SavedResults.share(state.context.fileState, config.savedResults)
    : SavedResults.of(state.context.fileState);
  persisted.addFolder(sessionResultsDir(config.stateDir));
  const maxResultSizeChars = options.maxResultSizeChars ?? DEFAULT_MAX_RESULT_SIZE_CHARS;
  const runTurn = createTurnRunner({
    options,
    sessionId: config.id,
    pool,
    hooks: config.hooks,
    metrics,
    notices,
    maxResultSizeChars,
    persisted,
    state,
  });
  const delivery: DeliveryOptions = {
    stateDir: config.stateDir,
    budgetChars: options.turnBudgetChars ?? DEFAULT_TURN_BUDGET_CHARS,
    maxCharsOf: (outcome) =>
      pool.find(outcome.toolName)?.tool?.maxResultSizeChars === Infinity ? Infinity : maxResultSizeChars,
    refuseToSave: () => deniedQuoteGuard(state.context),
    readers: () => savedOutputReaders(state.context.tools),
    persisted,
  };
  let closing: Promise<void> | undefined;
  return {
    id: config.id,
    get cwd() {
      return state.context.cwd;
    },
    stateDir: config.stateDir,
    toolsFor: createToolsFor(pool) as Session['toolsFor'],
    async run(blocks, runOptions) {
      const outcomes: CallOutcome[] = [];
      // Nobody reads a run's events: none is made.
      await runTurn(checkBlocks(blocks), runOptions, undefined, (outcome) => outcomes.push(outcome));
      return budgetRunResults(outcomes, delivery);
    },
    stream(blocks, runOptions) {
      // A consumer that stops reading (`break`) aborts the turn: nobody would see its results.
      const stopped = new AbortController();
      const queue = new AsyncQueue<SessionEvent>(() =>
        stopped.abort(new Error('The consumer stopped reading the event stream')),
      );
      const signal = runOptions?.signal ? AbortSignal.any([runOptions.signal, stopped.signal]) : stopped.signal;
      const { deliver, drained } = createStreamDelivery(delivery, (event) => queue.push(event));
      const done = runTurn(blocks, { signal }, (event) => queue.push(event), deliver);
      void done.then(drained).then(() => queue.end());
      return queue;
    },
    explain: (toolName, input) => explainCall({ toolName, input }, { pool, ctx: state.context }),
    catalog: () => pool.list(),
    deferredNotice: () =>
      deferredNoticeText(
        pool.list().filter((e) => e.deferred && !e.loaded),
        parts.instructions,
      ),
    metrics: () => metrics.snapshot(),
    notices: () => notices.list(),
    close() {
      // Every caller waits for the same cleanups: a second close() must not resolve while the
      // first is still killing processes.
      closing ??= (async () => {
        state.closed = true;
        await closeSession({
          cleanups: parts.cleanups,
          warn: (message) => notices.notice('warn', message),
          // A child's saved results are its parent's too: the parent's close() removes them.
          keepResults: config.savedResults ? true : config.keepResults,
          stateDir: config.stateDir,
          place: config.place,
          persisted,
        });
      })();
      return closing;
    },
  };
}

/** The pool as tools see it through `ctx.tools`. */
function catalogOf(pool: ToolPool): ToolCatalog {
  return {
    list: () => pool.list(),
    get version() {
      return pool.catalogVersion;
    },
    get: (name) => pool.find(name),
    load: (names) => pool.load(names),
  };
}

/** Blocks that are not objects still get a result (the orchestrator normalizes them); a non-list is misuse. */
function checkBlocks(blocks: readonly ToolUseBlock[]): readonly ToolUseBlock[] {
  if (!Array.isArray(blocks))
    throw new TypeError(`session.run takes an array of tool_use blocks, got ${typeof blocks}`);
  return blocks;
}
