/** Calls, errors and durations of one tool (or of all tools together). */
export interface ToolMetrics {
  calls: number;
  /** Calls whose result had `is_error: true`. */
  errors: number;
  /** Calls whose result was persisted by the result budget. */
  persisted: number;
  /** The sum of all durations, in milliseconds. */
  totalMs: number;
  /** `totalMs / calls`, over every call; 0 before the first. */
  meanMs: number;
  /** The 95th percentile (nearest rank) over the most recent durations; 0 before the first call. */
  p95Ms: number;
  /** The longest duration of any call. */
  maxMs: number;
}

/** What a session's `metrics()` returns. */
export interface SessionMetrics {
  /** Per tool name, in name order. */
  tools: Record<string, ToolMetrics>;
  /** All tools together. */
  total: ToolMetrics;
}

/** One call, as {@linkcode MetricsRecorder.record} takes it. */
export interface CallMetrics {
  /** How long the call took, in milliseconds. */
  durationMs: number;
  /** The result had `is_error: true`. */
  isError: boolean;
  /** The result was persisted by the result budget. @default false */
  persisted?: boolean;
}

/** Options of {@linkcode MetricsRecorder}. */
export interface MetricsRecorderOptions {
  /** How many of the most recent durations per tool (and for the total) the p95 is computed over. @default 1000 */
  maxSamples?: number;
}

/** The default of {@linkcode MetricsRecorderOptions.maxSamples}. */
export const DEFAULT_METRICS_MAX_SAMPLES = 1_000;

/**
 * Counts a session's tool calls per tool: calls, errors, persisted results and durations (mean,
 * nearest-rank p95, max). Memory stays bounded: only the last `maxSamples` durations per tool are
 * kept for the p95; counts, totals and the max cover every call.
 *
 * @example
 * ```ts
 * import { MetricsRecorder } from '@toolshed/core/internal';
 *
 * const metrics = new MetricsRecorder();
 * metrics.record('Read', { durationMs: 12, isError: false });
 * metrics.record('Bash', { durationMs: 840, isError: true });
 * metrics.snapshot().total.calls; // 2
 * ```
 */
export class MetricsRecorder {
  readonly #maxSamples: number;
  readonly #tools = new Map<string, Accumulator>();
  readonly #total: Accumulator;

  /**
   * @param options See {@linkcode MetricsRecorderOptions}.
   * @throws {RangeError} When `maxSamples` is not a positive integer.
   */
  constructor(options: MetricsRecorderOptions = {}) {
    const maxSamples = options.maxSamples ?? DEFAULT_METRICS_MAX_SAMPLES;
    if (!Number.isSafeInteger(maxSamples) || maxSamples < 1) {
      throw new RangeError(`MetricsRecorder maxSamples must be a positive integer, got ${String(maxSamples)}.`);
    }
    this.#maxSamples = maxSamples;
    this.#total = new Accumulator(maxSamples);
  }

  /**
   * Counts one call of `toolName`.
   *
   * @param toolName The tool's name as called.
   * @param call The duration and outcome.
   * @throws {RangeError} When `durationMs` is negative, NaN or infinite.
   *
   * @example
   * ```ts
   * import { MetricsRecorder } from '@toolshed/core/internal';
   * const metrics = new MetricsRecorder();
   *
   * metrics.record('Grep', { durationMs: 30, isError: false, persisted: true });
   * ```
   */
  record(toolName: string, call: CallMetrics): void {
    const { durationMs } = call;
    if (typeof durationMs !== 'number' || !Number.isFinite(durationMs) || durationMs < 0) {
      throw new RangeError(
        `MetricsRecorder.record needs a finite, non-negative durationMs for '${toolName}', got ${String(durationMs)}.`,
      );
    }
    let acc = this.#tools.get(toolName);
    if (acc === undefined) {
      acc = new Accumulator(this.#maxSamples);
      this.#tools.set(toolName, acc);
    }
    acc.add(call);
    this.#total.add(call);
  }

  /**
   * The numbers so far, as a fresh plain object (later calls do not change it).
   *
   * @returns Per-tool metrics, sorted by tool name, and the total.
   *
   * @example
   * ```ts
   * import { MetricsRecorder } from '@toolshed/core/internal';
   * const metrics = new MetricsRecorder();
   *
   * const { tools, total } = metrics.snapshot();
   * console.log(tools['Read']?.p95Ms, total.errors);
   * ```
   */
  snapshot(): SessionMetrics {
    const sorted = [...this.#tools].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    // Object.fromEntries defines own properties, so a tool named `__proto__` is stored as data.
    const tools: Record<string, ToolMetrics> = Object.fromEntries(sorted.map(([name, acc]) => [name, acc.metrics()]));
    return { tools, total: this.#total.metrics() };
  }
}

class Accumulator {
  calls = 0;
  errors = 0;
  persisted = 0;
  totalMs = 0;
  maxMs = 0;
  // A ring of the most recent durations; `next` is where the next one goes.
  readonly #samples: Float64Array;
  #next = 0;
  #count = 0;

  constructor(maxSamples: number) {
    this.#samples = new Float64Array(maxSamples);
  }

  add(call: CallMetrics): void {
    this.calls++;
    if (call.isError) this.errors++;
    if (call.persisted === true) this.persisted++;
    this.totalMs += call.durationMs;
    if (call.durationMs > this.maxMs) this.maxMs = call.durationMs;
    this.#samples[this.#next] = call.durationMs;
    this.#next = (this.#next + 1) % this.#samples.length;
    if (this.#count < this.#samples.length) this.#count++;
  }

  metrics(): ToolMetrics {
    return {
      calls: this.calls,
      errors: this.errors,
      persisted: this.persisted,
      totalMs: this.totalMs,
      meanMs: this.calls === 0 ? 0 : this.totalMs / this.calls,
      p95Ms: this.#p95(),
      maxMs: this.maxMs,
    };
  }

  #p95(): number {
    if (this.#count === 0) return 0;
    const sorted = this.#samples.slice(0, this.#count).sort();
    // Nearest rank: the smallest value with at least 95% of the samples at or below it.
    return sorted[Math.ceil(0.95 * this.#count) - 1] ?? 0;
  }
}
