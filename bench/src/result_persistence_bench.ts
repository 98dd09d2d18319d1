import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { buildTool, contentToText, createSession, type AnyTool, type Session, type ToolUseBlock } from '@toolshed/core';
import { isPersistedPreview, persistLargeResult } from '@toolshed/core/internal';
import { fileTools } from '@toolshed/tool-fs';
import { shellTools } from '@toolshed/tool-shell';
import { resolveParams, type BenchSuite, type SuiteOutcome, type SuiteRunOptions } from './_suite.ts';
import { prepareCorpus } from './_persistence_corpus.ts';
import { BASELINE_POLICIES, type PolicyInput, type PolicyOutput } from './_persistence_policies.ts';
import { MCP_DOC_TOOL, QUICK_TURNS, SCRIPTED_TURNS, type ScriptedCall } from './_persistence_script.ts';
import { createTokenCounters } from './_tokens_count.ts';

/** Sizes of {@linkcode resultPersistenceSuite}. */
export interface ResultPersistenceParams {
  /** `typescript` versions to fetch and commit, oldest first (two, so `git log -p` has a diff). */
  versions: string[];
  /** The whole scripted session, or its first turns. */
  script: 'full' | 'quick';
  /** Needles planted in each output of three lines or more. */
  needlesPerCall: number;
  /** Seed of the needles' places. */
  seed: number;
}

/** What one policy did over the scripted session. */
export interface PolicyFigures {
  description: string;
  totalChars: number;
  totalTokens: number;
  perTurnChars: number[];
  perTurnTokens: number[];
  largestTurnChars: number;
  largestTurnTokens: number;
  /** Outputs saved to a file, and their size. */
  savedOutputs: number;
  savedMB: number;
  /** Time spent saving, per MB saved (Toolshed: `persistLargeResult` of each saved output, fsync included; the baselines: `writeFile`). */
  persistMsPerMB: number | null;
  needles: number;
  /** Needles in what the model was sent. */
  recalledDirect: number;
  /** Needles found by a follow-up Grep of the saved file the model was told about. */
  recalledByFollowUp: number;
  recall: number;
  /** Tokens of those follow-up Grep results. */
  followUpTokens: number;
  /** Permission prompts the follow-ups raised (Toolshed's must be 0). */
  followUpPrompts: number;
}

/**
 * Result persistence against truncation, on real outputs of real commands: the suite fetches the
 * `typescript` package from the npm registry (`npm pack`, cached in `bench/.cache/`), commits two
 * releases into a git repository, and runs a scripted session of 50 calls (Glob, Grep in content
 * mode, big Reads, `git log -p`, a failing type check and a `node --test` run, an MCP-like
 * documentation tool returning large text) through Toolshed's real tools to capture each output
 * whole. Needles (`NEEDLE-…` lines) are planted at random lines of the outputs, then each policy
 * decides what the model is sent: Toolshed (the real session: persist + 2 000-character preview
 * over each tool's limit, 200 000-character turn budget), Gemini CLI, opencode, plain truncation
 * at 30 000 characters, no limit. Reported per policy: characters and tokens (Claude 2
 * tokenizer) per turn and in total, the largest turn, time to persist per MB, and needle recall:
 * a needle counts when it is in what was sent, or when a follow-up Grep (Toolshed's real Grep, in
 * a session) of the saved file named in what was sent finds it. Checks: Toolshed recalls every
 * needle, its follow-ups raise no prompt, and it sends the fewest tokens of the policies with
 * full recall.
 *
 * @example
 * ```ts
 * const { summary } = await resultPersistenceSuite.run({ quick: true });
 * summary.policies.toolshed.recall; // 1
 * ```
 */
export const resultPersistenceSuite: BenchSuite<ResultPersistenceParams> = {
  name: 'result_persistence',
  description:
    'Tokens sent and needle recall over a scripted 50-call session on the typescript package: Toolshed persist + preview against Gemini CLI, opencode, truncation at 30 000 chars and no limit.',
  defaults: {
    full: { versions: ['5.8.3', '5.9.3'], script: 'full', needlesPerCall: 2, seed: 14 },
    quick: { versions: ['5.8.3', '5.9.3'], script: 'quick', needlesPerCall: 1, seed: 14 },
  },
  run: runResultPersistence,
};

interface Captured {
  id: string;
  turn: number;
  tool: string;
  input: Record<string, unknown>;
  text: string;
  isError: boolean;
}

async function runResultPersistence(options: SuiteRunOptions<ResultPersistenceParams>): Promise<SuiteOutcome> {
  const params = resolveParams(resultPersistenceSuite, options);
  const turns = params.script === 'full' ? SCRIPTED_TURNS : QUICK_TURNS;
  const work = await mkdtemp(path.join(os.tmpdir(), 'toolshed-bench-persist-'));
  const sessions: Session[] = [];
  const counter = createTokenCounters()[0]!;
  try {
    const corpus = await prepareCorpus(work, params.versions);
    const repo = corpus.repo;

    // 1. Capture every output whole, through the real tools.
    const capture = await createSession({
      cwd: repo,
      stateDir: path.join(work, 'capture-state'),
      families: [fileTools(), shellTools({ maxOutputChars: 200_000_000 })],
      tools: [docTool(repo)],
      permissions: { mode: 'bypassPermissions' },
      turnBudgetChars: Number.MAX_SAFE_INTEGER,
      keepResults: true,
    });
    sessions.push(capture);
    const limits = Object.fromEntries(capture.catalog().map((e) => [e.name, e.tool?.maxResultSizeChars ?? null]));
    const captured: Captured[] = [];
    for (const [t, turn] of turns.entries()) {
      const blocks = turn.map((call, i) => block(`c${t}_${i}`, call));
      const results = await capture.run(blocks);
      for (const [i, result] of results.entries()) {
        let text = contentToText(result.content);
        if (isPersistedPreview(text))
          text = await readFile(/The full output is saved to (.+)$/m.exec(text)![1]!, 'utf8');
        captured.push({
          id: blocks[i]!.id,
          turn: t,
          tool: turn[i]!.name,
          input: turn[i]!.input,
          text,
          isError: result.is_error === true,
        });
      }
    }

    // 2. Plant needles.
    const random = mulberry32(params.seed);
    const needles: { id: string; turn: number; needle: string }[] = [];
    const planted = new Map<string, string>();
    for (const c of captured) {
      const lines = c.text.split('\n');
      if (lines.length >= 3) {
        for (let j = 0; j < params.needlesPerCall; j++) {
          const needle = `NEEDLE-${c.id}-${j}-${Math.floor(random() * 0xffffffff)
            .toString(16)
            .padStart(8, '0')}`;
          lines.splice(Math.floor(random() * (lines.length + 1)), 0, needle);
          needles.push({ id: c.id, turn: c.turn, needle });
        }
      }
      planted.set(c.id, lines.join('\n'));
    }
    const turnInputs: PolicyInput[][] = turns.map((_, t) =>
      captured.filter((c) => c.turn === t).map((c) => ({ id: c.id, tool: c.tool, text: planted.get(c.id)! })),
    );

    // 3. Apply the policies. Toolshed's is a real session whose tools return the planted outputs.
    const sent = new Map<string, PolicyOutput[][]>();
    const saving = new Map<string, { ms: number; bytes: number; outputs: number }>();
    const replayTools = [...new Set(captured.map((c) => c.tool))].map((name) =>
      replayTool(name, limits[name] ?? 50_000, planted),
    );
    const replay = await createSession({ cwd: repo, tools: replayTools });
    sessions.push(replay);
    const toolshedTurns: PolicyOutput[][] = [];
    const toolshedSaving = { ms: 0, bytes: 0, outputs: 0 };
    const timingDir = path.join(work, 'persist-timing');
    for (const turn of turnInputs) {
      const results = await replay.run(
        turn.map((item) => ({ type: 'tool_use', id: item.id, name: item.tool, input: { id: item.id } })),
      );
      const outputs: PolicyOutput[] = [];
      for (const [i, result] of results.entries()) {
        const text = contentToText(result.content);
        const savedPath = isPersistedPreview(text) ? /The full output is saved to (.+)$/m.exec(text)?.[1] : undefined;
        if (savedPath) {
          toolshedSaving.outputs++;
          toolshedSaving.bytes += (await stat(savedPath)).size;
          // The time to persist, measured on its own: the same output through persistLargeResult (fsync included).
          const started = performance.now();
          await persistLargeResult(turn[i]!.text, {
            toolUseId: `timing_${turn[i]!.id}`,
            stateDir: timingDir,
            maxChars: 0,
          });
          toolshedSaving.ms += performance.now() - started;
        }
        outputs.push(savedPath ? { sent: text, savedPath } : { sent: text });
      }
      toolshedTurns.push(outputs);
    }
    sent.set('toolshed', toolshedTurns);
    saving.set('toolshed', toolshedSaving);
    for (const policy of BASELINE_POLICIES) {
      const dir = path.join(work, 'policies', policy.name);
      const perTurn: PolicyOutput[][] = [];
      const totals = { ms: 0, bytes: 0, outputs: 0 };
      for (const turn of turnInputs) {
        const out = await policy.apply(turn, dir);
        perTurn.push(out.outputs);
        totals.ms += out.saveMs;
        totals.bytes += out.savedBytes;
        totals.outputs += out.outputs.filter((o) => o.savedPath).length;
      }
      sent.set(policy.name, perTurn);
      saving.set(policy.name, totals);
    }

    // 4. Recall: in what was sent, or by a follow-up Grep of the saved file it names.
    const prompts = { toolshed: 0, others: 0 };
    const toolshedFollow = await createSession({
      cwd: repo,
      families: [fileTools()],
      stateDir: replay.stateDir,
      keepResults: true,
      canUseTool: async () => (prompts.toolshed++, { behavior: 'deny', message: 'the bench answers no prompt' }),
    });
    const otherFollow = await createSession({
      cwd: repo,
      families: [fileTools()],
      stateDir: path.join(work, 'follow-state'),
      // Gemini CLI and opencode let their own model read their saved files: the same here.
      permissions: { additionalDirectories: [path.join(work, 'policies')] },
      canUseTool: async () => (prompts.others++, { behavior: 'deny', message: 'the bench answers no prompt' }),
    });
    sessions.push(toolshedFollow, otherFollow);

    const descriptions: Record<string, string> = {
      toolshed: `Toolshed: over each tool's limit (${describeLimits(limits, captured)}) persisted with a 2 000-char preview; 200 000-char turn budget`,
      ...Object.fromEntries(BASELINE_POLICIES.map((p) => [p.name, p.description])),
    };
    const policies: Record<string, PolicyFigures> = {};
    let followUpId = 0;
    for (const [name, perTurn] of sent) {
      const perTurnChars: number[] = [];
      const perTurnTokens: number[] = [];
      for (const outputs of perTurn) {
        perTurnChars.push(outputs.reduce((n, o) => n + o.sent.length, 0));
        perTurnTokens.push(outputs.reduce((n, o) => n + counter.count(o.sent), 0));
      }
      let direct = 0;
      let byFollowUp = 0;
      let followUpTokens = 0;
      for (const { id, turn, needle } of needles) {
        const index = turnInputs[turn]!.findIndex((item) => item.id === id);
        const out = perTurn[turn]![index]!;
        if (out.sent.includes(needle)) {
          direct++;
          continue;
        }
        if (!out.savedPath || !out.sent.includes(out.savedPath)) continue;
        const session = name === 'toolshed' ? toolshedFollow : otherFollow;
        const [result] = await session.run([
          {
            type: 'tool_use',
            id: `f${++followUpId}`,
            name: 'Grep',
            input: { pattern: needle, path: out.savedPath, output_mode: 'content' },
          },
        ]);
        const text = contentToText(result!.content);
        followUpTokens += counter.count(text);
        if (result!.is_error !== true && text.includes(needle)) byFollowUp++;
      }
      const save = saving.get(name)!;
      policies[name] = {
        description: descriptions[name] ?? name,
        totalChars: sum(perTurnChars),
        totalTokens: sum(perTurnTokens),
        perTurnChars,
        perTurnTokens,
        largestTurnChars: Math.max(...perTurnChars),
        largestTurnTokens: Math.max(...perTurnTokens),
        savedOutputs: save.outputs,
        savedMB: round(save.bytes / 1_048_576, 3),
        persistMsPerMB: save.bytes > 0 ? round(save.ms / (save.bytes / 1_048_576), 2) : null,
        needles: needles.length,
        recalledDirect: direct,
        recalledByFollowUp: byFollowUp,
        recall: needles.length ? round((direct + byFollowUp) / needles.length, 4) : 1,
        followUpTokens,
        followUpPrompts: name === 'toolshed' ? prompts.toolshed : 0,
      };
    }
    if (prompts.others > 0) policies['gemini-cli']!.followUpPrompts = prompts.others;

    const table = Object.entries(policies).map(([policy, p]) => ({
      policy,
      'tokens sent': p.totalTokens,
      'chars sent': p.totalChars,
      'largest turn (tokens)': p.largestTurnTokens,
      'saved outputs': p.savedOutputs,
      'persist ms/MB': p.persistMsPerMB ?? '—',
      recall: `${(p.recall * 100).toFixed(1)}%`,
      'follow-up tokens': p.followUpTokens,
    }));
    console.table(table);

    const failures: string[] = [];
    const toolshed = policies.toolshed!;
    if (toolshed.recall < 1)
      failures.push(
        `Toolshed recalled ${toolshed.recalledDirect + toolshed.recalledByFollowUp} of ${toolshed.needles} needles, not all`,
      );
    if (toolshed.followUpPrompts > 0)
      failures.push(
        `Toolshed's follow-up Greps of its own saved results raised ${toolshed.followUpPrompts} permission prompt(s)`,
      );
    const fullRecall = Object.entries(policies).filter(([, p]) => p.recall === 1);
    const fewest = fullRecall.sort((a, b) => a[1].totalTokens - b[1].totalTokens)[0];
    if (fewest && fewest[0] !== 'toolshed')
      failures.push(
        `"${fewest[0]}" sent fewer tokens (${fewest[1].totalTokens}) than Toolshed (${toolshed.totalTokens}) with full recall`,
      );
    const rawChars = captured.reduce((n, c) => n + c.text.length, 0);
    return {
      results: [],
      summary: {
        corpus: {
          package: 'typescript',
          versions: corpus.versions,
          tarballs: corpus.tarballs.map((t) => path.basename(t)),
        },
        tokenizer: counter.note,
        calls: captured.length,
        turns: turns.length,
        callErrors: captured.filter((c) => c.isError).map((c) => `${c.id} ${c.tool}`),
        rawChars,
        largestOutputChars: Math.max(...captured.map((c) => c.text.length)),
        outputsOver50k: captured.filter((c) => c.text.length > 50_000).length,
        needles: needles.length,
        toolLimits: Object.fromEntries(
          [...new Set(captured.map((c) => c.tool))].map((t) => [t, limits[t] === Infinity ? 'Infinity' : limits[t]]),
        ),
        toolshedTokensSavedVsNoLimitPercent: round(
          100 * (1 - toolshed.totalTokens / policies['no-limit']!.totalTokens),
          1,
        ),
        fewestTokensWithFullRecall: fewest?.[0] ?? null,
        outputs: captured.map((c) => ({
          id: c.id,
          tool: c.tool,
          input: c.input,
          chars: c.text.length,
          lines: c.text.split('\n').length,
          isError: c.isError,
        })),
        policies,
        table,
      },
      failures,
    };
  } finally {
    counter.free();
    for (const session of sessions) await session.close().catch(() => undefined);
    await rm(work, { recursive: true, force: true });
  }
}

function block(id: string, call: ScriptedCall): ToolUseBlock {
  return { type: 'tool_use', id, name: call.name, input: call.input };
}

/** A tool named like a real one, with its limit, returning the planted output of a call. */
function replayTool(name: string, maxResultSizeChars: number, planted: ReadonlyMap<string, string>): AnyTool {
  return buildTool({
    name,
    description: `Replays the captured output of ${name}.`,
    inputSchema: z.strictObject({ id: z.string() }),
    maxResultSizeChars,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call({ id }) {
      return { data: planted.get(id) ?? '' };
    },
  }) as AnyTool;
}

/** The MCP-like documentation tool: a file of the package, a locale's messages, or a section. */
function docTool(repo: string): AnyTool {
  return buildTool({
    name: MCP_DOC_TOOL,
    description: 'Returns a document of the TypeScript documentation server.',
    inputSchema: z.strictObject({ name: z.string(), locale: z.string().optional(), section: z.string().optional() }),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call({ name, locale, section }) {
      const file =
        name === 'diagnosticMessages'
          ? path.join(repo, 'lib', locale ?? 'de', 'diagnosticMessages.generated.json')
          : path.join(repo, 'lib', name);
      let text = await readFile(file, 'utf8');
      if (section) {
        const at = text.indexOf(section);
        text = at === -1 ? `No section "${section}" in ${name}.` : text.slice(at, at + 120_000);
      }
      return { data: text };
    },
  }) as AnyTool;
}

function describeLimits(limits: Record<string, number | null>, captured: readonly Captured[]): string {
  const names = [...new Set(captured.map((c) => c.tool))];
  return names
    .map((n) => `${n} ${limits[n] === Infinity ? '∞' : (limits[n] ?? 50_000).toLocaleString('en-US')}`)
    .join(', ');
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
