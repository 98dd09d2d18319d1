import { join } from 'node:path';
import type { AnyTool, ResourceAccess, ToolContext } from '../tool.ts';
import { describeError } from '../describe_error.ts';
import { ToolshedError } from '../errors.ts';
import {
  findPathRule,
  findProtectedWrite,
  type GuardedPath,
  outsideWorkingDirectories,
  PATH_RULE_COVERAGE,
  pathRuleSuggestion,
  resolveResources,
  ruleCoversPath,
} from './path_guard.ts';
import { checkRootsAgain } from './real_path_cache.ts';
import { PATH_UNRESOLVABLE } from './resolve_real_path.ts';
import { findRuleByHardLink, MAX_LISTED_ENTRIES } from './hard_linked_rules.ts';
import { findRuleUnderFolder, folderLinks, type FolderWalks, protectedUnderFolder } from './folder_access.ts';
import { unknownAccessAsk, unknownSafetyAsk } from './_unknown_access.ts';
import { describeRuleAtLanding, findRuleAtLanding } from './landing_rules.ts';
import { keptRootNote, repointedRootsNote } from './_repointed_roots.ts';
import { recordDecidedPaths } from './approved_paths.ts';
import { checkedSuggestions, quotedRules } from './_checked_suggestions.ts';
import { ownResultsRead } from './own_results.ts';
import { coveredOnly, ruleMatchesCall, ruleMatchesTool } from './rule_matching.ts';
import { keptRuleCandidates } from './tool_rule_index.ts';
import { countRuleVisit } from './_rule_visits.ts';
import { isThenable, type MaybePromise } from '../_maybe_async.ts';
import type {
  HookPermissionDecision,
  PermissionDecision,
  PermissionMatcher,
  PermissionResult,
  PermissionRule,
} from './types.ts';

/** The two ways rule candidates are asked for, made once: the decision runs per call. */
const WITH_SPECIFIERS = { specifiers: true } as const;
const WITHOUT_SPECIFIERS = { specifiers: false } as const;

/** Options of {@linkcode decidePermission}. */
export interface DecidePermissionOptions {
  /**
   * The call's context; `ctx.permissions` holds the mode, the rules and the working
   * directories.
   */
  ctx: ToolContext;
  /**
   * The PreToolUse hooks' combined permission decision, if a hook gave one. Its `deny` and
   * `ask` come right after the rules of the same kind; its `allow` after the tool's own check.
   * A deny rule always beats it.
   */
  hookDecision?: HookPermissionDecision | undefined;
}

/**
 * Decides whether one call may run, in Claude Code's order:
 *
 * 1. a deny rule that matches the call → deny; a Read, Grep or Glob that only reads files this
 *    session saved, unchanged since (`<stateDir>/tool-results`) → allow, unless a hook denies
 *    ({@linkcode ownResultsRead}); a `Read`/`Edit` deny path rule that covers one of the
 *    paths the tool declares in `resources(input, ctx)` (for a `folder` entry, any path under
 *    it; the links below a folder count as paths too) → deny (always: over a hook's allow, in
 *    `bypassPermissions`); a deny rule that only may cover a path under a folder (too large to
 *    walk, or a repository's history) → ask, in every mode, after a hook's deny;
 * 2. a hook's deny → deny;
 * 3. an ask rule that matches the call or covers one of its paths → ask;
 * 4. a hook's ask → ask;
 * 5. the tool's `checkPermissions`: deny → deny; ask → ask (skipped in `bypassPermissions`
 *    unless it is a safety check); passthrough → go on;
 * 6. safety: a write to a protected path (`.toolshed/`, `.claude/`, `.mcp.json`, `.git/`
 *    internals, shell start-up files), a folder write that may reach one, or any access to a
 *    device file → ask, in every mode, unless an allow rule names the path; a path the tool
 *    could not know before the call (`kind: 'unknown'`) → ask, in every mode, when a deny or
 *    ask path rule could cover it (reads) or always (writes, as protected paths could be
 *    behind it); then the tool's allow → allow, when every path it declared is inside the
 *    working directories (or named by an allow rule), else ask;
 * 7. a hook's allow → allow;
 * 8. the mode: `bypassPermissions` allows; `plan` denies what is not read-only;
 * 9. a path outside the working directories that no allow path rule names → ask; an unknown
 *    path that no allow rule about the call covers → ask;
 * 10. `acceptEdits` allows a file tool's call (Read/Edit families) whose paths are all inside;
 * 11. an allow rule that matches → allow (for file tools, path rules covering every path too);
 * 12. a read-only call → allow (not for MCP tools: their read-only flag is the server's claim);
 * 13. otherwise ask, with the rules that would allow the call as suggestions.
 *
 * Every declared path is resolved before it is matched: absolute, `..` collapsed, symlinks
 * followed (a new file through its nearest existing parent); deny and ask rules see both the
 * path as written and the real path, allow rules and the working-directory check only the
 * real one. In `dontAsk` mode, every ask becomes a deny. The decision never throws: when the
 * tool's own checks (`isReadOnly`, `checkPermissions`, its permission matcher, `resources`)
 * throw, or a path loops through symlinks, the call is denied with a reason that says so.
 *
 * @param tool The tool called.
 * @param input The call's parsed (and validated) input.
 * @param options The call's context (`ctx`: its `permissions` hold the mode, the rules and the
 *   working directories) and the hooks' decision, if any.
 * @returns The decision, with a reason a person understands and, when a rule decided, the rule
 *   and where it came from.
 *
 * @example
 * ```ts
 * import { type AnyTool, type ToolContext } from '@toolshed/core';
 * import { decidePermission } from '@toolshed/core/internal';
 * declare const bashTool: AnyTool; // a family's Bash tool (tool-shell's bashTool)
 * declare const ctx: ToolContext;
 *
 * const decision = await decidePermission(bashTool, { command: 'rm -rf build' }, { ctx });
 * // { behavior: 'deny', reason: 'Denied by rule "Bash(rm:*)" from /p/.toolshed/settings.json',
 * //   rule: 'Bash(rm:*)', source: '/p/.toolshed/settings.json' }
 * ```
 */
export async function decidePermission(
  tool: AnyTool,
  input: unknown,
  { ctx, hookDecision }: DecidePermissionOptions,
): Promise<PermissionDecision> {
  let decision: PermissionDecision;
  try {
    decision = await decide(tool, input, ctx, hookDecision);
    // An ask's suggested rules must allow this very call once added: tried here, before they are offered.
    if (decision.behavior === 'ask')
      decision = await checkedSuggestions(decision, {
        ctx,
        toolSuggestions: () => suggestionsFor(tool, input),
        redecide: (tried) => decide(tool, input, tried, hookDecision),
      });
  } catch (e) {
    decision = failClosed(tool, e);
  }
  if (decision.behavior === 'ask' && ctx.permissions?.mode === 'dontAsk') return askToDeny(decision);
  return decision;
}

/**
 * The text the model sees when a call is not run: for a deny, what was denied and by which rule,
 * hook, check or mode; for an ask that nobody could answer (no `canUseTool`), why it asked and
 * which rule to add to `permissions.allow` (the first suggestion) to allow it.
 *
 * @param toolName The tool's name.
 * @param decision The decision of {@linkcode decidePermission}.
 * @returns One or two sentences for a `tool_result` with `is_error: true`.
 *
 * @example
 * ```ts
 * import { denialMessage } from '@toolshed/core/internal';
 *
 * denialMessage('Bash', { behavior: 'ask', reason: 'No rule allows Bash with this input; allow it with "Bash(npm run build)"', suggestions: ['Bash(npm run build)'] });
 * // 'Permission to use Bash needs approval (No rule allows Bash …), and no one was available to
 * //  approve it, so the call was not run. To allow it, add "Bash(npm run build)" to permissions.allow.'
 * ```
 */
export function denialMessage(toolName: string, decision: PermissionDecision): string {
  const reason = stripPeriod(decision.reason);
  const hint = allowHint(decision);
  if (decision.behavior === 'deny') {
    if (decision.message) {
      // A mode's message is written for the model whole; a tool's is the detail of a denial.
      const text =
        decision.source === 'tool' ? `Permission to use ${toolName} was denied: ${decision.message}` : decision.message;
      return joinSentences(text, hint);
    }
    if (decision.rule) {
      return `Permission to use ${toolName} was denied by rule "${decision.rule}" from ${decision.source ?? 'the settings'}. Do not retry this call; if it is needed, ask the user to change the rule.`;
    }
    return joinSentences(`Permission to use ${toolName} was denied: ${reason}.`, hint);
  }
  if (decision.behavior === 'ask') {
    const lead = `Permission to use ${toolName} needs approval (${reason}), and no one was available to approve it, so the call was not run.`;
    if (decision.rule) {
      return `${lead} To run such calls without asking, remove "${decision.rule}" from permissions.ask in ${decision.source ?? 'the settings'}.`;
    }
    return joinSentences(lead, hint);
  }
  return `Permission to use ${toolName} was granted: ${reason}.`;
}

/** What every step of {@linkcode decide} looks at: the call, its resolved paths and the rules. */
interface Call {
  tool: AnyTool;
  input: unknown;
  ctx: ToolContext;
  hook: HookPermissionDecision | undefined;
  name: string;
  mode: ToolContext['permissions']['mode'];
  rules: ToolContext['permissions']['rules'];
  /** The first rule of a list that matches the call itself (not its paths). */
  matching: (list: readonly PermissionRule[]) => MaybePromise<PermissionRule | undefined>;
  walks: FolderWalks;
  /**
   * What the path checks take (the tool's name, the context, the folder walks), made once per
   * call: object spreads here cost more than the checks themselves on a call with no paths.
   */
  guard: { toolName: string; ctx: ToolContext; walks: FolderWalks };
  /** The same for allow rules, which match the physical paths only. */
  allowGuard: { toolName: string; ctx: ToolContext; realOnly: true };
  /** The declared paths, resolved, and the links below its folders. */
  paths: GuardedPath[];
  /** The paths the tool could not know before the call (`kind: 'unknown'`). */
  unknown: ResourceAccess[];
}

/** The steps of {@linkcode decidePermission} (numbered as in its doc comment), in order. */
async function decide(
  tool: AnyTool,
  input: unknown,
  ctx: ToolContext,
  hook: HookPermissionDecision | undefined,
): Promise<PermissionDecision> {
  // Roots, working directories and the results folder come from the root cache: this decision
  // sees every change made to their ways before it began, even within this turn.
  checkRootsAgain();
  const walks: FolderWalks = new Map();
  // Each step is awaited only when it is a promise (a tool's own asynchronous check): this runs per call.
  const found = guardedPaths(tool, input, ctx);
  const { paths: declared, unknown } = isThenable(found) ? await found : found;
  // What the tool may open: it compares the file it opens with these (approvedRealPaths).
  recordDecidedPaths(ctx, declared);
  const call: Call = {
    tool,
    input,
    ctx,
    hook,
    name: tool.name,
    mode: ctx.permissions.mode,
    rules: ctx.permissions.rules,
    matching: ruleFinder(tool, input),
    walks,
    guard: { toolName: tool.name, ctx, walks },
    allowGuard: { toolName: tool.name, ctx, realOnly: true },
    // A folder entry touches every file under it: the links below it lead where they point.
    paths: [...declared, ...folderLinks(declared, ctx, { walks })],
    unknown,
  };
  // 1. Deny rules win over everything, hooks and bypassPermissions included; a path rule
  //    covers every path the call declared (a shell redirection as much as an Edit).
  //    The rules about the call are found here, the helpers are synchronous.
  const denyRule = call.matching(call.rules.deny);
  const denied = byDenyRules(call, isThenable(denyRule) ? await denyRule : denyRule);
  if (denied) return denied;
  // 3. Ask rules beat allow rules, the tool's allow and the mode.
  const askRule = call.matching(call.rules.ask);
  const asked = byAskRules(call, isThenable(askRule) ? await askRule : askRule);
  if (asked) return asked;

  // 5. The tool's own opinion.
  const checked = guarded(`${call.name}'s checkPermissions`, () => tool.checkPermissions(input, ctx));
  const own = isThenable(checked) ? await checked : checked;
  const fromTool = toolDecision(tool, own, call.mode);
  // The tool's deny and ask decide now; its allow only after the path guard's safety checks.
  if (fromTool && fromTool.behavior !== 'allow') return fromTool;
  const safety = bySafetyChecks(call);
  if (safety) return safety;
  // The tool's allow: the paths it declared must still be inside the working directories.
  if (fromTool) {
    const outside = outsideWorkingDirectories(call.paths, call.guard);
    return outside.length > 0 ? outsideAsk(outside, ctx, tool.name) : fromTool;
  }
  return await byHookModeAndAllowRules(call, own);
}

/**
 * Whether a deny path rule also covers a path in the session's state folder beside its
 * `tool-results` (one that is no saved result): a rule over the home or the state folder, which
 * guards the user's files, not the session's own output.
 */
function coversBesideResults(rule: PermissionRule, call: Call): boolean {
  const { ctx, guard } = call;
  if (typeof ctx.stateDir !== 'string' || ctx.stateDir === '') return false;
  const [beside] = resolveResources([{ path: join(ctx.stateDir, 'not-a-saved-result'), access: 'read' }], ctx);
  return beside !== undefined && ruleCoversPath(rule, beside, guard);
}

/**
 * Steps 1 and 2: the deny rule about the call (found by the caller), deny path rules, a hook's
 * deny, the session's own results, a deny rule that may cover a file under a folder.
 */
function byDenyRules(call: Call, denyRule: PermissionRule | undefined): PermissionDecision | undefined {
  const { rules, paths, unknown, hook, guard } = call;
  if (denyRule) return byRule('deny', denyRule, `Denied by rule "${denyRule.raw}" from ${denyRule.source}`);
  // A Read, Grep or Glob of files this session saved, unchanged since (own_results.ts): deny path
  // rules guard the user's files, not the session's own output, so a rule over the state folder
  // (`Read(~/**)`) does not make a result the preview points at unreadable. A hook's deny still wins.
  const ownResults = unknown.length === 0 ? ownResultsRead(paths, guard) : undefined;
  const denyPath = findPathRule(rules.deny, paths, guard);
  // A rule written about the results themselves (`Read(~/.toolshed/state/**/tool-results/**)`) is the
  // user's word on them, and holds: only a rule that also covers the state folder beside them is passed.
  if (ownResults && (!denyPath || coversBesideResults(denyPath.rule, call))) {
    return hook?.behavior === 'deny' ? hookDeny(hook) : ownResults;
  }
  if (denyPath) {
    return byRule(
      'deny',
      denyPath.rule,
      `Denied by rule "${denyPath.rule.raw}" from ${denyPath.rule.source}: it covers ${describePath(denyPath.path)}${withNote(keptRootNote(denyPath.rule, denyPath.path, guard))}`,
    );
  }
  const denyLink = findRuleByHardLink(rules.deny, paths, guard);
  if (denyLink?.file !== undefined) {
    return byRule(
      'deny',
      denyLink.rule,
      `Denied by rule "${denyLink.rule.raw}" from ${denyLink.rule.source}: ${describeHardLink(denyLink)}`,
    );
  }
  const denyFolder = findRuleUnderFolder(rules.deny, paths, guard);
  if (denyFolder?.surely) {
    return byRule(
      'deny',
      denyFolder.rule,
      `Denied by rule "${denyFolder.rule.raw}" from ${denyFolder.rule.source}: ${describePath(denyFolder.path)} takes in ${everyFileUnder(denyFolder.path)}, and the rule covers some of them${folderReadAdvice(denyFolder.path)}`,
    );
  }
  // What a copied, moved or linked folder holds lands below the path written: judged entry by entry.
  const denyLanding = findRuleAtLanding(rules.deny, paths, guard);
  if (denyLanding?.surely) {
    return byRule(
      'deny',
      denyLanding.rule,
      `Denied by rule "${denyLanding.rule.raw}" from ${denyLanding.rule.source}: ${describeRuleAtLanding(denyLanding)}`,
    );
  }

  // 2. A hook's deny.
  if (hook?.behavior === 'deny') return hookDeny(hook);

  // A deny rule that may cover a file under a folder (too large to walk, or a history): ask.
  if (denyFolder) {
    return {
      behavior: 'ask',
      reason: `${capitalize(describePath(denyFolder.path))} takes in ${everyFileUnder(denyFolder.path)}${denyFolder.path.history ? ' and its history' : ''}, which deny rule "${denyFolder.rule.raw}" from ${denyFolder.rule.source} may cover: it asks, in every mode${folderReadAdvice(denyFolder.path)}`,
      source: 'safety',
      suggestions: [],
    };
  }
  if (denyLanding) {
    return {
      behavior: 'ask',
      reason: `${capitalize(describeRuleAtLanding(denyLanding))}: deny rule "${denyLanding.rule.raw}" from ${denyLanding.rule.source}; it asks, in every mode`,
      source: 'safety',
      suggestions: [],
    };
  }
  // A file with several names, and a deny rule's folder too large to list for the files it names.
  if (denyLink) {
    return {
      behavior: 'ask',
      reason: `${capitalize(describeHardLink({ ...denyLink, by: `deny rule "${denyLink.rule.raw}" from ${denyLink.rule.source}` }))}; it asks, in every mode`,
      source: 'safety',
      suggestions: [],
    };
  }

  return undefined;
}

/** A PreToolUse hook's deny, as a decision. */
function hookDeny(hook: HookPermissionDecision): PermissionDecision {
  return {
    behavior: 'deny',
    reason: withDetail(`Denied by PreToolUse hook "${hook.hook}"`, hook.reason),
    source: 'hook',
  };
}

/** Steps 3 and 4: the ask rule about the call (found by the caller), ask path rules, a hook's ask. */
function byAskRules(call: Call, askRule: PermissionRule | undefined): PermissionDecision | undefined {
  const { name, rules, paths, hook, guard } = call;
  if (askRule) {
    return {
      ...byRule(
        'ask',
        askRule,
        `Rule "${askRule.raw}" from ${askRule.source} requires confirmation for this ${name} call`,
      ),
      suggestions: [],
    };
  }
  const askPath = findPathRule(rules.ask, paths, guard);
  if (askPath) {
    return {
      ...byRule(
        'ask',
        askPath.rule,
        `Rule "${askPath.rule.raw}" from ${askPath.rule.source} requires confirmation for ${describePath(askPath.path)}${withNote(keptRootNote(askPath.rule, askPath.path, guard))}`,
      ),
      suggestions: [],
    };
  }
  const askLink = findRuleByHardLink(rules.ask, paths, guard);
  if (askLink) {
    return {
      ...byRule(
        'ask',
        askLink.rule,
        `Rule "${askLink.rule.raw}" from ${askLink.rule.source} requires confirmation: ${describeHardLink(askLink)}`,
      ),
      suggestions: [],
    };
  }
  const askFolder = findRuleUnderFolder(rules.ask, paths, guard);
  if (askFolder) {
    return {
      ...byRule(
        'ask',
        askFolder.rule,
        `Rule "${askFolder.rule.raw}" from ${askFolder.rule.source} requires confirmation: ${describePath(askFolder.path)} takes in ${everyFileUnder(askFolder.path)}, and the rule covers some of them`,
      ),
      suggestions: [],
    };
  }
  const askLanding = findRuleAtLanding(rules.ask, paths, guard);
  if (askLanding) {
    return {
      ...byRule(
        'ask',
        askLanding.rule,
        `Rule "${askLanding.rule.raw}" from ${askLanding.rule.source} requires confirmation: ${describeRuleAtLanding(askLanding)}`,
      ),
      suggestions: [],
    };
  }

  // 4. A hook's ask.
  if (hook?.behavior === 'ask') {
    return {
      behavior: 'ask',
      reason: withDetail(`PreToolUse hook "${hook.hook}" asks for confirmation`, hook.reason),
      source: 'hook',
      suggestions: [],
    };
  }

  return undefined;
}

/**
 * Step 6: safety checks no mode and no hook lifts: protected paths, device files, and paths not
 * known before the call.
 */
function bySafetyChecks(call: Call): PermissionDecision | undefined {
  const { rules, paths, unknown, ctx, guard, allowGuard } = call;
  const protectedWrite = findProtectedWrite(paths, guard) ?? protectedUnderFolder(paths, ctx, guard);
  if (protectedWrite) {
    // A write over a whole folder (`rm -rf ~`) gets no rule: one would allow far more than the call.
    const rule =
      protectedWrite.path.kind === 'folder' || protectedWrite.path.from !== undefined
        ? undefined
        : protectedRuleSuggestion(
            protectedWrite.path.real[0] ?? protectedWrite.path.lexical,
            protectedWrite.protection.name,
          );
    return {
      behavior: 'ask',
      reason: `${capitalize(describePath(protectedWrite.path))} touches ${protectedWrite.protection.what}, which is protected: such writes always ask, in every mode, unless an allow rule names the path${rule ? ` (such as ${quotedRules([rule])})` : ''}`,
      source: 'safety',
      suggestions: rule ? [rule] : [],
    };
  }
  const device = paths.find((p) => p.device && findPathRule(rules.allow, [p], allowGuard) === undefined);
  if (device) {
    return {
      behavior: 'ask',
      reason: `${capitalize(describePath(device))} touches a device file, FIFO or socket, which can block or never end: it always asks, in every mode, unless an allow rule names the path`,
      source: 'safety',
      suggestions: [],
    };
  }

  // Paths not known before the call runs: a deny, ask or protected rule could be behind them.
  return unknownSafetyAsk(unknown, guard);
}

/**
 * Steps 7 to 13, once no rule, hook, tool or safety check has denied or asked: a hook's allow,
 * the mode, the working directories, allow rules, read-only calls, else ask.
 */
async function byHookModeAndAllowRules(call: Call, own: PermissionResult | undefined): Promise<PermissionDecision> {
  const { tool, input, name, mode, rules, matching, paths, unknown, ctx, hook, guard, allowGuard } = call;
  // 7. A hook's allow.
  if (hook?.behavior === 'allow') {
    return {
      behavior: 'allow',
      reason: withDetail(`Allowed by PreToolUse hook "${hook.hook}"`, hook.reason),
      source: 'hook',
    };
  }

  // 8. The mode.
  let readOnly: boolean | undefined;
  const isReadOnly = async () => {
    if (readOnly === undefined) {
      const answer = guarded(`${name}'s isReadOnly`, () => tool.isReadOnly(input));
      readOnly = (isThenable(answer) ? await answer : answer) === true;
    }
    return readOnly;
  };
  if (mode === 'bypassPermissions') {
    return { behavior: 'allow', reason: 'Allowed because the session is in bypassPermissions mode', source: 'mode' };
  }
  if (mode === 'plan' && !(await isReadOnly())) {
    return {
      behavior: 'deny',
      reason: `Denied because the session is in plan mode, where only read-only calls run, and this ${name} call is not read-only`,
      source: 'mode',
      message:
        `${name} was not run: the session is in plan mode, where only read-only tools may run. ` +
        `Keep researching with read-only tools, then present your plan to the user (with ExitPlanMode, if you have it) ` +
        `instead of running ${name}; it can run once the plan is approved and plan mode is over.`,
    };
  }
  // 9. Reads and writes outside the working directories ask, whatever else would allow them,
  //    unless an allow rule names the path; 10. acceptEdits allows a file tool's edits inside.
  const outside = outsideWorkingDirectories(paths, guard);
  if (outside.length > 0) return outsideAsk(outside, ctx, name);
  // What is not known is not auto-approved: only a person, or an allow rule about the call itself.
  if (unknown.length > 0) {
    const about = matching(rules.allow);
    if (!(isThenable(about) ? await about : about))
      return { ...unknownAccessAsk(unknown), suggestions: suggestionsFor(tool, input) };
  }
  if (mode === 'acceptEdits' && isFileTool(name) && paths.length > 0) {
    return {
      behavior: 'allow',
      reason: `Allowed because the session is in acceptEdits mode and every path this ${name} call touches is inside the working directories`,
      source: 'mode',
    };
  }

  // 11. Allow rules: one about the call, or path rules that cover every path of a file tool.
  const found = matching(rules.allow);
  const allowRule: PermissionRule | undefined = isThenable(found) ? await found : found;
  if (allowRule) return byRule('allow', allowRule, `Allowed by rule "${allowRule.raw}" from ${allowRule.source}`);
  if (isFileTool(name) && paths.length > 0) {
    const covering = paths.map((p) => findPathRule(rules.allow, [p], allowGuard)?.rule);
    if (covering.every((rule) => rule !== undefined)) {
      const rule = covering[0]!;
      return byRule('allow', rule, `Allowed by rule "${rule.raw}" from ${rule.source}`);
    }
  }

  // 12. A tool with no opinion is allowed when the call only reads. An MCP tool's read-only
  //     flag is its server's claim (readOnlyHint): it decides concurrency and display, never
  //     permission; a server the user trusts allows through its tools' checkPermissions.
  if (!tool.isMcp && (await isReadOnly()))
    return { behavior: 'allow', reason: `Allowed because this ${name} call is read-only`, source: 'tool' };

  // 13. Nobody decided: ask, offering the rules that would allow the call.
  const suggestions = suggestionsFor(tool, input);
  const first = suggestions[0];
  // A passthrough may say why the tool had no opinion ("it is not read-only: it writes a.txt").
  const why =
    own?.behavior === 'passthrough' && typeof own.message === 'string' && own.message ? ` (${own.message})` : '';
  // A file tool's path that an allow rule covered before its folder became a link: say so.
  const note = isFileTool(name) && paths.length > 0 ? withNote(repointedRootsNote(paths, guard)) : '';
  return {
    behavior: 'ask',
    reason: first
      ? `No rule allows ${name} with this input${why}; allow it with ${quotedRules(suggestions)}${note}`
      : `No rule allows ${name} with this input${why}${note}`,
    suggestions,
  };
}

/**
 * The tool's declared paths, resolved, and its unknown entries apart; a broken `resources` or a
 * symlink loop denies the call.
 */
function guardedPaths(
  tool: AnyTool,
  input: unknown,
  ctx: ToolContext,
): MaybePromise<{ paths: GuardedPath[]; unknown: ResourceAccess[] }> {
  const accesses = guarded(`${tool.name}'s resources`, () => tool.resources(input, ctx));
  return isThenable(accesses)
    ? Promise.resolve(accesses).then((resolved) => resourcesOf(tool, resolved, ctx))
    : resourcesOf(tool, accesses, ctx);
}

/** {@linkcode guardedPaths} once the tool's `resources` answered. */
function resourcesOf(
  tool: AnyTool,
  accesses: Awaited<ReturnType<AnyTool['resources']>>,
  ctx: ToolContext,
): { paths: GuardedPath[]; unknown: ResourceAccess[] } {
  const list = Array.isArray(accesses) ? accesses : (accesses ?? []);
  const unknown = Array.isArray(list)
    ? list.filter((a) => a?.kind === 'unknown' && (a.access === 'read' || a.access === 'write'))
    : [];
  try {
    return {
      paths: resolveResources(Array.isArray(list) ? list.filter((a) => a?.kind !== 'unknown') : list, ctx),
      unknown,
    };
  } catch (e) {
    if (ToolshedError.isInstance(e) && e.code === PATH_UNRESOLVABLE)
      throw new CheckFailed('path resolution', `failed: ${e.message}`);
    throw new CheckFailed(`${tool.name}'s resources`, `gave an entry the path guard cannot check: ${describeError(e)}`);
  }
}

/** Tools whose calls are what their paths are: path allow rules and acceptEdits decide them. */
function isFileTool(name: string): boolean {
  return PATH_RULE_COVERAGE.Read.includes(name) || PATH_RULE_COVERAGE.Edit.includes(name);
}

function describePath(path: GuardedPath): string {
  const real = path.real[0];
  const shown = real && real !== path.lexical ? `"${path.declared}" (really "${real}")` : `"${path.declared}"`;
  return `the ${path.access === 'read' ? 'read of' : 'write to'} ${shown}`;
}

/**
 * A read of another name of a file a rule names (a hard link), in words; or of a file with several
 * names that a rule (`by`, in words) whose folder is too large to list may name.
 */
function describeHardLink(found: {
  path: GuardedPath;
  file?: string | undefined;
  folder?: string | undefined;
  by?: string;
}): string {
  if (found.file !== undefined) {
    return `${describePath(found.path)} opens "${found.file}", which the rule covers: it is a hard link to that file (the same file under another name)`;
  }
  return `${describePath(found.path)} opens a file with several names (hard links), and ${found.by ?? 'the rule'} names files in "${found.folder}", which holds more than ${MAX_LISTED_ENTRIES} entries, too many to list: the file may be one of them. To read without a question, keep the files the rule is about in a smaller folder, or name them one by one (\`Read(./.env)\`)`;
}

/** What a folder read takes in: every file under it, or (read as git reads a work tree) every file git tracks there. */
function everyFileUnder(path: GuardedPath): string {
  return path.tracked ? 'every file git tracks under it' : 'every file under it';
}

/**
 * How a folder read held back by a rule about some of the files it takes in can leave them out:
 * name the paths (for git's read of the files it tracks, see `ResourceAccess.tracked`, after
 * `--`), or read git's work tree rather than a history.
 */
function folderReadAdvice(path: GuardedPath): string {
  if (path.tracked) return '; name the paths to read after `--` (`git diff -- src`) to leave them out';
  if (path.history)
    return '; name the paths after `--` to read only their history (`git log -p -- src`, `git show HEAD -- src`), or, without a revision, `git diff` and `git grep` read only the files git tracks';
  if (path.access === 'read') return '; name the files or folders to read instead, leaving out the ones it covers';
  return '';
}

/** A note after a reason that ends without a full stop: `''`, or the stop and the note. */
function withNote(note: string): string {
  return note === '' ? '' : `.${note}`;
}

function outsideAsk(outside: readonly GuardedPath[], ctx: ToolContext, toolName: string): PermissionDecision {
  // A write over a whole folder outside (`rm -rf /srv`) gets no rule: one would allow far more than the call.
  const suggestions = outside.some((p) => p.kind === 'folder' && p.access === 'write')
    ? []
    : outside.map(pathRuleSuggestion).filter((s, i, all) => all.indexOf(s) === i);
  // Adding the folder to the working directories helps a read; a write there would still ask.
  const orFolder = outside.every((p) => p.access === 'read')
    ? ' or add its directory to permissions.additionalDirectories'
    : '';
  const how =
    suggestions.length > 0
      ? `allow it with ${quotedRules(suggestions)}${orFolder}`
      : 'a person must approve it (no rule is suggested for a write over a whole folder outside them)';
  return {
    behavior: 'ask',
    reason: `${capitalize(describePath(outside[0]!))} is outside the working directories (${ctx.permissions.workingDirectories.join(', ')}); ${how}${withNote(repointedRootsNote(outside, { toolName, ctx }))}`,
    suggestions,
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function protectedRuleSuggestion(path: string, name: string): string {
  const at = path.lastIndexOf(`/${name}`);
  const base = at === -1 ? path : path.slice(0, at + name.length + 1);
  return base === path ? `Edit(/${path})` : `Edit(/${base}/**)`;
}

/** The tool's `checkPermissions` result as a decision, or undefined to go on. */
function toolDecision(tool: AnyTool, result: PermissionResult, mode: string): PermissionDecision | undefined {
  const name = tool.name;
  switch (result?.behavior) {
    case 'passthrough':
      return undefined;
    case 'deny': {
      const decision: PermissionDecision = {
        behavior: 'deny',
        reason: withDetail(`Denied by ${name}'s own permission check`, result.reason ?? result.message),
        source: 'tool',
      };
      if (result.message) decision.message = result.message;
      return decision;
    }
    case 'ask': {
      // bypassPermissions skips a tool's prompt, but not one that guards a protected path.
      if (mode === 'bypassPermissions' && result.safety !== true) return undefined;
      const decision: PermissionDecision = {
        behavior: 'ask',
        reason: withDetail(`${name}'s own permission check asks for confirmation`, result.reason ?? result.message),
        source: 'tool',
        suggestions: Array.isArray(result.suggestions) ? result.suggestions.filter((s) => typeof s === 'string') : [],
      };
      if (result.message) decision.message = result.message;
      return decision;
    }
    case 'allow': {
      const decision: PermissionDecision = {
        behavior: 'allow',
        reason: withDetail(`Allowed by ${name}'s own permission check`, result.reason),
        source: 'tool',
      };
      if (result.updatedInput !== undefined) decision.updatedInput = result.updatedInput;
      return decision;
    }
    default:
      throw new CheckFailed(
        `${name}'s checkPermissions`,
        `returned ${JSON.stringify(result) ?? String(result)}, which is not a result with behavior allow, deny, ask or passthrough`,
      );
  }
}

/**
 * Finds the first rule of a list that covers the call. The tool's matcher is prepared once, and
 * only when a rule with a specifier names the tool, so a broken matcher cannot deny calls that
 * no such rule is about.
 */
function ruleFinder(
  tool: AnyTool,
  input: unknown,
): (list: readonly PermissionRule[]) => MaybePromise<PermissionRule | undefined> {
  let prepared: MaybePromise<PermissionMatcher | undefined> | undefined;
  const matcher = () =>
    (prepared ??= guarded(`${tool.name}'s preparePermissionMatcher`, async () => {
      if (!tool.preparePermissionMatcher) return undefined;
      const m = await tool.preparePermissionMatcher(input);
      if (typeof m !== 'function')
        throw new CheckFailed(
          `${tool.name}'s preparePermissionMatcher`,
          `returned ${typeof m}, not a matcher function`,
        );
      return m;
    }));
  const visit = (rule: PermissionRule): boolean => {
    countRuleVisit();
    return ruleMatchesTool(rule, tool) && !coveredOnly(rule, tool);
  };
  // From the first rule with a specifier on, the tool's matcher decides: asynchronous.
  const withMatcher = async (list: readonly PermissionRule[], candidates: readonly number[], from: number) => {
    for (let k = from; k < candidates.length; k++) {
      const rule = list[candidates[k]!]!;
      if (k > from && !visit(rule)) continue;
      if (rule.ruleContent === undefined) return rule;
      const m = await matcher();
      if (!m) continue; // a tool without a matcher never matches a rule with a specifier
      const label = `${tool.name}'s permission matcher (checking rule "${rule.raw}")`;
      if (await guarded(label, () => ruleMatchesCall(rule, tool, { input, matcher: m }))) return rule;
    }
    return undefined;
  };
  // Synchronous until a rule needs the matcher: most rules about a call have no specifier.
  return (list) => {
    // Only the rules that name the tool (by name, alias, coverage or MCP server), in list order.
    // A tool without a matcher never matches a rule with a specifier: those are not even looked at.
    const candidates = keptRuleCandidates(
      list,
      tool,
      tool.preparePermissionMatcher !== undefined ? WITH_SPECIFIERS : WITHOUT_SPECIFIERS,
    );
    for (let k = 0; k < candidates.length; k++) {
      const rule = list[candidates[k]!]!;
      if (!visit(rule)) continue;
      if (rule.ruleContent === undefined) return rule;
      return withMatcher(list, candidates, k);
    }
    return undefined;
  };
}

function suggestionsFor(tool: AnyTool, input: unknown): string[] {
  try {
    const list = tool.permissionSuggestions(input);
    return Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string' && s !== '') : [];
  } catch {
    // Suggestions only help the user write a rule; a broken one must not change the decision.
    return [];
  }
}

function askToDeny(decision: PermissionDecision): PermissionDecision {
  const denied: PermissionDecision = {
    behavior: 'deny',
    reason: `${stripPeriod(decision.reason)}; the session is in dontAsk mode, which denies whatever would ask`,
    source: 'mode',
  };
  if (decision.suggestions && decision.suggestions.length > 0) denied.suggestions = decision.suggestions;
  return denied;
}

function byRule(behavior: PermissionDecision['behavior'], rule: PermissionRule, reason: string): PermissionDecision {
  return { behavior, reason, rule: rule.raw, source: rule.source };
}

/** A failure of one of the tool's own checks: which one (`what`) and how (`how`). */
class CheckFailed extends Error {
  constructor(
    readonly what: string,
    readonly how: string,
  ) {
    super(`${what} ${how}`);
  }
}

/**
 * Runs one of the tool's own checks; a failure becomes a {@linkcode CheckFailed} naming it. A
 * promise only when the check is asynchronous (most are not, and this runs per call).
 */
function guarded<T>(what: string, fn: () => MaybePromise<T>): MaybePromise<T> {
  let value: MaybePromise<T>;
  try {
    value = fn();
  } catch (e) {
    throw checkFailed(what, e);
  }
  if (!isThenable(value)) return value;
  return Promise.resolve(value).then(undefined, (e: unknown) => {
    throw checkFailed(what, e);
  });
}

function checkFailed(what: string, e: unknown): CheckFailed {
  return e instanceof CheckFailed ? e : new CheckFailed(what, `threw an error: "${describeError(e)}"`);
}

function failClosed(tool: AnyTool, error: unknown): PermissionDecision {
  const name = typeof tool?.name === 'string' ? tool.name : 'the tool';
  if (error instanceof CheckFailed) {
    return {
      behavior: 'deny',
      reason: `Denied because ${error.what} ${error.how}; a permission check that fails denies the call`,
      source: 'tool',
    };
  }
  return {
    behavior: 'deny',
    reason: `Denied because the permission check of ${name} failed: "${describeError(error)}"; a permission check that fails denies the call`,
    source: 'tool',
  };
}

function allowHint(decision: PermissionDecision): string {
  const rules = decision.suggestions ?? [];
  if (rules.length === 0) return '';
  return `To allow it, add ${quotedRules(rules)} to permissions.allow${rules.length > 1 ? ' (all of them: each covers a part of the call)' : ''}.`;
}

function withDetail(lead: string, detail: string | undefined): string {
  const text = detail?.trim();
  return text ? `${lead}: ${stripPeriod(text)}` : lead;
}

function stripPeriod(text: string): string {
  return text.replace(/\.\s*$/, '');
}

function joinSentences(first: string, second: string): string {
  return second ? `${first} ${second}` : first;
}
