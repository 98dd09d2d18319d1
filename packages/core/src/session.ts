import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ToolResultBlock, ToolUseBlock } from './blocks.ts';
import type { ToolContext, ToolCatalog } from './context.ts';
import type { Family, FamilySetupApi } from './family.ts';
import type { RunOptions, Session, SessionEvent, SessionOptions } from './session_types.ts';
import type { PermissionDecision } from './permissions/types.ts';
import { defineFamily } from './family.ts';
import { ToolshedError } from './errors.ts';
import { ToolPool } from './pool.ts';
import { runToolUse, type CallOutcome, type PipelineEnv } from './pipeline.ts';
import { executeTurn } from './orchestration.ts';
import { AsyncQueue } from './_async_queue.ts';
import { createServices } from './services.ts';
import { createPermissionContext, mergePermissionContexts } from './permissions/permission_context.ts';
import { assertSettingsValid, loadSettings, SETTINGS_INVALID } from './settings/load_settings.ts';
import { mergeHooks } from './hooks/merge_hooks.ts';
import { failClosedHooks } from './hooks/fail_closed_hooks.ts';
import { decidePermission } from './permissions/decide_permission.ts';
import { findBlanketDenyRule } from './permissions/rule_matching.ts';
import { FileStateCache } from './results/file_state_cache.ts';
import { MetricsRecorder } from './results/metrics.ts';
import { applyTurnBudget, DEFAULT_TURN_BUDGET_CHARS } from './results/result_budget.ts';
import { formatToolDefinition, type ProviderFormat, type ProviderToolsOptions } from './provider_format.ts';
import { formatInputError } from './input_errors.ts';
import { describeError } from './describe_error.ts';
import { DEFAULT_MAX_RESULT_SIZE_CHARS } from './tool.ts';
import { deferredNoticeText } from './deferred_notice.ts';
import { prepareStateDir } from './state_dir.ts';
import { sessionResultsDir } from './permissions/own_results.ts';
import { deniedQuoteGuard } from './results/denied_quote_guard.ts';
import { checkKeepResults, removeSessionResults, sweepOldResults } from './results/result_cleanup.ts';
import { childSessionKey, INHERITED_FROM_PARENT, narrowerMode, type ChildSessionOptions } from './child_session.ts';
import { parseRule } from './permissions/rule_parser.ts';
import type { PermissionContext } from './permissions/types.ts';
import type { HooksConfig } from './hooks/types.ts';

/** What a parent hands a child session (see `child_session.ts`); not part of the public options. */
interface Inherited {
  permissions: PermissionContext;
  hooks: HooksConfig | undefined;
}

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
  if (!options || typeof options.cwd !== 'string' || options.cwd.length === 0) {
    throw new TypeError(`createSession needs a cwd (a directory path), got ${JSON.stringify(options?.cwd)}`);
  }
  const cwd = path.resolve(options.cwd);
  const id = options.sessionId ?? randomUUID();
  const keepResults = checkKeepResults(options.keepResults ?? false);
  // The default place is per user and private (state_dir.ts); a stateDir given is the caller's.
  const place =
    options.stateDir === undefined ? await prepareStateDir({ sessionId: id, homeDir: options.homeDir }) : undefined;
  const stateDir = place?.dir ?? path.resolve(options.stateDir!);
  // What this session saved, for close(): a stateDir the caller chose keeps everything else.
  const persisted = new Set<string>();
  const settings = await loadSettings({
    cwd,
    sources: options.settingsSources,
    files: options.settingsFiles,
    homeDir: options.homeDir,
    caseInsensitivePaths: options.caseInsensitivePaths,
    trustedProject: options.trustedProject,
  });
  assertSettingsValid(settings);
  const fromOptions = createPermissionContext(options.permissions, cwd, options.permissionsSource ?? 'options', {
    homeDir: options.homeDir,
    caseInsensitivePaths: options.caseInsensitivePaths,
  });
  const errors = fromOptions.errors;
  if (errors.length) {
    throw new ToolshedError(errors[0]!.code, errors.map((e) => e.message).join('\n'), { cause: errors });
  }
  const inherited = (options as SessionOptions & { [INHERITED_FROM_PARENT]?: Inherited })[INHERITED_FROM_PARENT];
  const permissions = inherited
    ? inherited.permissions
    : mergePermissionContexts(settings.permissions, {
        mode: options.permissions?.mode === undefined ? undefined : fromOptions.context.mode,
        rules: fromOptions.context.rules,
        workingDirectories: fromOptions.context.workingDirectories,
      });
  if (permissions.mode === 'bypassPermissions' && settings.bypassDisabledBy.length > 0) {
    throw new ToolshedError(
      SETTINGS_INVALID,
      `The permission mode is bypassPermissions, but ${settings.bypassDisabledBy.map((f) => `"${f}"`).join(' and ')} set permissions.disableBypassPermissionsMode to "disable": choose another mode, or remove that key`,
    );
  }
  const merged = mergeHooks(settings.disableAllHooks?.value === true ? undefined : settings.hooks, options.hooks);
  const hooks = inherited
    ? inherited.hooks
    : settings.failClosedHooks?.value === true
      ? failClosedHooks(merged)
      : merged;
  const services = createServices(options.services);
  services.set(childSessionKey, { open: (child) => openChild(child) });
  const fileState = new FileStateCache();
  const metrics = new MetricsRecorder();
  const cleanups: (() => void | Promise<void>)[] = [];
  const notices: { level: 'info' | 'warn' | 'error'; message: string }[] = settings.warnings.map((message) => ({
    level: 'warn' as const,
    message,
  }));
  // The emitters of the turns running now: a notice raised during a turn (a failed context
  // change, a broken block stream) also reaches the events of `stream`.
  const turnEmitters = new Set<(event: SessionEvent) => void>();
  const notice = (level: 'info' | 'warn' | 'error', message: string) => {
    notices.push({ level, message });
    for (const emit of turnEmitters) emit({ type: 'notice', level, message });
  };

  const families: Family[] = [...(options.families ?? [])];
  if (options.tools?.length) families.push(defineFamily({ name: 'custom', version: '0.0.0', tools: options.tools }));
  const pool = new ToolPool({ families, permissions, cwd, notice, features: options.features ?? {} });

  const catalog: ToolCatalog = {
    list: () => pool.list(),
    get version() {
      return pool.catalogVersion;
    },
    get: (name) => pool.find(name),
    load: (names) => pool.load(names),
  };
  // The context that persists between calls; a tool's contextModifier replaces it.
  let baseContext: ToolContext = {
    sessionId: id,
    cwd,
    stateDir,
    toolUseId: '',
    signal: options.signal ?? new AbortController().signal,
    fileState,
    permissions,
    ...(Object.keys(settings.env).length > 0 ? { env: settings.env } : {}),
    tools: catalog,
    services,
    onClose: (cleanup) => void cleanups.push(cleanup),
  };

  const instructions = new Map<string, string>();
  for (const family of families) {
    if (!family.setup) continue;
    const api: FamilySetupApi = {
      sessionId: id,
      cwd,
      stateDir,
      services,
      permissions,
      setDeferralPolicy: (policy) => pool.setDeferralPolicy(policy),
      setInstructions: (prefix, text) => {
        if (text?.trim()) instructions.set(prefix, text.trim());
        else instructions.delete(prefix);
      },
      refreshTools: () => pool.assemble(),
      emit: (event) => notice(event.level, event.message),
      onClose: (cleanup) => void cleanups.push(cleanup),
    };
    try {
      await family.setup(api);
    } catch (e) {
      notice('error', `Family "${family.name}" failed to set up: ${describeError(e)}`);
    }
  }
  await pool.assemble();

  const requestCache = new Map<string, unknown[]>();
  let cachedVersion = -1;
  let closed = false;
  let closing: Promise<void> | undefined;

  const pipelineEnv = (emit: (event: SessionEvent) => void): PipelineEnv => ({
    sessionId: id,
    pool,
    hooks,
    canUseTool: options.canUseTool,
    makeContext: (toolUseId, signal) => ({ ...baseContext, toolUseId, signal }),
    emit,
    maxResultSizeChars: options.maxResultSizeChars ?? DEFAULT_MAX_RESULT_SIZE_CHARS,
    metrics,
  });

  const runTurn = (
    blocks: Iterable<ToolUseBlock> | AsyncIterable<ToolUseBlock>,
    runOptions: RunOptions | undefined,
    emit: (event: SessionEvent) => void,
    onOutcome: (outcome: CallOutcome) => void,
  ): Promise<void> => {
    const signals = [options.signal, runOptions?.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length ? AbortSignal.any(signals) : new AbortController().signal;
    const env = pipelineEnv(emit);
    const record = onOutcome;
    onOutcome = (outcome) => {
      if (outcome.persistedPath) persisted.add(outcome.persistedPath);
      record(outcome);
    };
    turnEmitters.add(emit);
    return executeTurn(
      blocks,
      {
        concurrency: options.concurrency ?? 10,
        isConcurrencySafe: (block) => isConcurrencySafe(block),
        runCall: (block, callSignal) => {
          if (closed) return Promise.resolve(closedOutcome(block));
          return runToolUse(block, env, callSignal);
        },
        applyContextModifier: (modifier) => {
          try {
            const next = modifier(baseContext);
            // Per-call fields are not the modifier's to keep.
            baseContext = { ...next, toolUseId: '', signal: baseContext.signal };
          } catch (e) {
            notice('warn', `A tool's context change failed and was skipped: ${describeError(e)}`);
          }
        },
        notice: (message) => notice('error', message),
      },
      signal,
      onOutcome,
    ).finally(() => turnEmitters.delete(emit));
  };

  const isConcurrencySafe = async (block: ToolUseBlock): Promise<boolean> => {
    const tool = await pool.resolve(block.name);
    if (!tool) return true; // an unknown tool's error result touches nothing
    const parsed = tool.inputSchema.safeParse(block.input);
    if (!parsed.success) return true; // an invalid input ends at the parse step, touching nothing
    try {
      return tool.isConcurrencySafe(parsed.data) === true;
    } catch {
      return false;
    }
  };

  const session: Session = {
    id,
    get cwd() {
      return baseContext.cwd;
    },
    stateDir,

    toolsFor: toolsFor as Session['toolsFor'],

    async run(blocks, runOptions) {
      const outcomes: CallOutcome[] = [];
      await runTurn(
        checkBlocks(blocks),
        runOptions,
        () => {},
        (outcome) => outcomes.push(outcome),
      );
      const refuseToSave = deniedQuoteGuard(baseContext);
      const budgeted = await applyTurnBudget(
        outcomes.map((o) => ({
          content: o.result.content,
          toolUseId: o.result.tool_use_id,
          maxChars: maxCharsOf(o),
          refuseToSave,
        })),
        { stateDir, budgetChars: options.turnBudgetChars ?? DEFAULT_TURN_BUDGET_CHARS },
      );
      for (const b of budgeted) if (b.persistedPath) persisted.add(b.persistedPath);
      return outcomes.map((o, i) => ({ ...o.result, content: budgeted[i]!.content }));
    },

    stream(blocks, runOptions) {
      // A consumer that stops reading (`break`) aborts the turn: nobody would see its results.
      const stopped = new AbortController();
      const queue = new AsyncQueue<SessionEvent>(() =>
        stopped.abort(new Error('The consumer stopped reading the event stream')),
      );
      const signal = runOptions?.signal ? AbortSignal.any([runOptions.signal, stopped.signal]) : stopped.signal;
      const turnBudget = options.turnBudgetChars ?? DEFAULT_TURN_BUDGET_CHARS;
      let total = 0;
      // Results are delivered in order while the turn is still running, so the turn budget
      // here is greedy: a result that would take the turn past it is persisted.
      let delivering = Promise.resolve();
      const done = runTurn(
        blocks,
        { signal },
        (event) => queue.push(event),
        (outcome) => {
          delivering = delivering.then(async () => {
            let result = outcome.result;
            let persistedPath = outcome.persistedPath;
            const size = textSize(result.content);
            if (total + size > turnBudget) {
              const item = {
                content: result.content,
                toolUseId: result.tool_use_id,
                maxChars: maxCharsOf(outcome),
                refuseToSave: deniedQuoteGuard(baseContext),
              };
              const [budgeted] = await applyTurnBudget([item], {
                stateDir,
                budgetChars: Math.max(0, turnBudget - total),
              });
              if (budgeted!.persistedPath) {
                result = { ...result, content: budgeted!.content };
                persistedPath = budgeted!.persistedPath;
                persisted.add(persistedPath);
              } else if (budgeted!.notSavedReason) {
                result = { ...result, content: budgeted!.content };
              }
            }
            total += textSize(result.content);
            const event: SessionEvent = {
              type: 'result',
              toolUseId: result.tool_use_id,
              toolName: outcome.toolName,
              result,
              durationMs: outcome.durationMs,
            };
            if (persistedPath) event.persistedPath = persistedPath;
            if (outcome.newMessages) event.newMessages = outcome.newMessages;
            queue.push(event);
          });
        },
      );
      void done.then(() => delivering).then(() => queue.end());
      return queue;
    },

    async explain(toolName: string, input: unknown): Promise<PermissionDecision> {
      const tool = await pool.resolve(toolName);
      if (!tool) {
        // A blanket deny rule removes its tool from the pool; the decision still names the rule.
        const rule = findBlanketDenyRule({ name: toolName, aliases: [] }, permissions);
        if (rule)
          return {
            behavior: 'deny',
            reason: `Denied by rule "${rule.raw}" from ${rule.source}; the tool is left out of the pool`,
            rule: rule.raw,
            source: rule.source,
          };
        return { behavior: 'deny', reason: `No such tool available: ${toolName}`, source: 'pool' };
      }
      const parsed = tool.inputSchema.safeParse(input);
      if (!parsed.success)
        return { behavior: 'deny', reason: formatInputError(tool.name, parsed.error, input), source: 'schema' };
      const ctx = { ...baseContext, toolUseId: 'explain', signal: new AbortController().signal };
      return decidePermission(tool, parsed.data, ctx);
    },

    catalog: () => pool.list(),
    deferredNotice: () =>
      deferredNoticeText(
        pool.list().filter((e) => e.deferred && !e.loaded),
        instructions,
      ),
    metrics: () => metrics.snapshot(),
    notices: () => [...notices],

    close() {
      // Every caller waits for the same cleanups: a second close() must not resolve while the
      // first is still killing processes.
      closing ??= (async () => {
        closed = true;
        for (const cleanup of cleanups.splice(0).reverse()) {
          try {
            await cleanup();
          } catch (e) {
            notice('warn', `A cleanup step failed on close: ${describeError(e)}`);
          }
        }
        // Last, once families have stopped what writes there (background tasks' logs).
        try {
          if (keepResults === false)
            await removeSessionResults({ stateDir, ownsStateDir: place !== undefined, files: persisted });
          else if (keepResults !== true) {
            const dirs = place
              ? (await readdir(place.root).catch(() => [] as string[])).map((name) =>
                  sessionResultsDir(path.join(place.root, name)),
                )
              : [sessionResultsDir(stateDir)];
            await sweepOldResults(dirs, keepResults.maxAgeMs, { removeEmptyParents: place !== undefined });
          }
        } catch (e) {
          notice(
            'warn',
            `Removing the session's saved results from "${stateDir}" failed on close: ${describeError(e)}`,
          );
        }
      })();
      return closing;
    },
  };

  /**
   * A child session: same cwd, families, hooks and canUseTool; the parent's permission context
   * (its rules wherever they came from, its working directories) plus blanket deny rules for
   * the tools it may not have, and a mode never more permissive than the parent's.
   */
  async function openChild(child: ChildSessionOptions = {}): Promise<Session> {
    if (closed)
      throw new ToolshedError('session_closed', 'The session is closed; no child session can be opened from it');
    const source = child.source ?? 'child session';
    const toolName = (rule: string) => rule.replace(/\(.*$/s, '').trim();
    const keep = child.tools && !child.tools.includes('*') ? new Set(child.tools.map(toolName)) : undefined;
    const removed = new Set<string>(child.disallowedTools ?? []);
    if (keep) {
      for (const entry of pool.list()) {
        if (keep.has(entry.name) || entry.tool?.aliases.some((a) => keep.has(a))) continue;
        removed.add(entry.name);
      }
    }
    const current = baseContext.permissions;
    const childPermissions: PermissionContext = {
      ...current,
      mode: narrowerMode(current.mode, child.mode),
      rules: {
        ...current.rules,
        deny: [...current.rules.deny, ...[...removed].map((name) => parseRule(name, 'deny', source))],
      },
      ...(child.cwd !== undefined ? { workingDirectories: [path.resolve(child.cwd)] } : {}),
    };
    const childId = child.sessionId ?? randomUUID();
    const signals = [options.signal, child.signal].filter((s): s is AbortSignal => s !== undefined);
    const { permissions: _permissions, signal: _signal, hooks: _hooks, ...rest } = options;
    const childOptions: SessionOptions & { [INHERITED_FROM_PARENT]: Inherited } = {
      ...rest,
      cwd: child.cwd !== undefined ? path.resolve(child.cwd) : baseContext.cwd,
      sessionId: childId,
      stateDir: child.stateDir ?? path.join(stateDir, 'children', childId),
      settingsSources: [],
      settingsFiles: [],
      [INHERITED_FROM_PARENT]: { permissions: childPermissions, hooks },
    };
    if (signals.length) childOptions.signal = AbortSignal.any(signals);
    return createSession(childOptions);
  }

  function toolsFor(format: ProviderFormat, toolsOptions: ProviderToolsOptions = {}): unknown[] {
    if (pool.version !== cachedVersion) {
      requestCache.clear();
      cachedVersion = pool.version;
    }
    const key = `${format}|${toolsOptions.nativeToolSearch ?? ''}`;
    let tools = requestCache.get(key);
    if (!tools) {
      tools = pool.visibleDefinitions().map((def) => formatToolDefinition(def, format));
      if (toolsOptions.nativeToolSearch) {
        if (format !== 'anthropic')
          throw new RangeError(`nativeToolSearch is an Anthropic API feature; format "${format}" does not support it`);
        const deferred = pool
          .deferredDefinitions()
          .map((def) => ({ ...formatToolDefinition(def, format), defer_loading: true }));
        const variant = toolsOptions.nativeToolSearch;
        tools = [
          { type: `tool_search_tool_${variant}_20251119`, name: `tool_search_tool_${variant}` },
          ...tools,
          ...deferred,
        ].sort((a, b) => ((a as { name: string }).name < (b as { name: string }).name ? -1 : 1));
      }
      requestCache.set(key, tools);
    }
    return tools;
  }

  function maxCharsOf(outcome: CallOutcome): number {
    const tool = pool.find(outcome.toolName)?.tool;
    return tool?.maxResultSizeChars === Infinity
      ? Infinity
      : (options.maxResultSizeChars ?? DEFAULT_MAX_RESULT_SIZE_CHARS);
  }

  return session;
}

/** Blocks that are not objects still get a result (the orchestrator normalizes them); a non-list is misuse. */
function checkBlocks(blocks: readonly ToolUseBlock[]): readonly ToolUseBlock[] {
  if (!Array.isArray(blocks))
    throw new TypeError(`session.run takes an array of tool_use blocks, got ${typeof blocks}`);
  return blocks;
}

function closedOutcome(block: ToolUseBlock): CallOutcome {
  return {
    toolName: String(block.name),
    durationMs: 0,
    result: {
      type: 'tool_result',
      tool_use_id: String(block.id),
      content: `${String(block.name)} was not run: the session is closed.`,
      is_error: true,
    },
  };
}

function textSize(content: ToolResultBlock['content']): number {
  if (typeof content === 'string') return content.length;
  let n = 0;
  for (const block of content) if (block.type === 'text') n += block.text.length;
  return n;
}
