import { formatCount as formatCountOf } from './_format_count.ts';
import { createHash, randomUUID } from 'node:crypto';
import { link, mkdir, open, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ContentBlock, ToolResultContent } from '../blocks.ts';
import { savedFileStats, type SavedFileStats } from './saved_results.ts';
import { savedText } from './_saved_text.ts';
import { readMoreHint, type SavedOutputReaders, savedOutputReaders } from './saved_output_hint.ts';

/** How many characters of the start of a persisted output the model sees. */
export const DEFAULT_PREVIEW_CHARS = 2_000;

/** Results of one turn together over this many characters are persisted, largest first. */
export const DEFAULT_TURN_BUDGET_CHARS = 200_000;

// The preview is wrapped in these so a later pass (the turn budget) can tell a preview from an output.
const PREVIEW_OPEN = '<persisted-output>';
const PREVIEW_CLOSE = '</persisted-output>';

// Filenames are capped well below the usual 255-byte limit, leaving room for a hash and a suffix.
const MAX_FILE_STEM = 120;
// How many `<id>-<n>.txt` names are tried when `<id>.txt` is already taken.
const MAX_NAME_ATTEMPTS = 1_000;

/** Options of {@linkcode persistLargeResult}. */
export interface PersistLargeResultOptions {
  /** The id of the `tool_use`; names the file (sanitized to `[A-Za-z0-9_-]`). */
  toolUseId: string;
  /** The session's state directory; the file goes to `<stateDir>/tool-results/`. */
  stateDir: string;
  /** Text over this many characters is persisted; `Infinity` never persists. */
  maxChars: number;
  /** How many characters of the start the preview shows. @default 2000 */
  previewChars?: number;
  /**
   * Says why an output must not be saved (see {@linkcode deniedQuoteGuard}), or undefined to save
   * it. A refused output is cut to `maxChars` characters in place, with a note of the reason,
   * and no file is written.
   */
  refuseToSave?: ((text: string) => string | undefined) | undefined;
  /**
   * The tools the session has to read the file with; the preview names only these
   * ({@linkcode savedOutputReaders} of `ctx.tools`). @default Read and Grep
   */
  readers?: SavedOutputReaders | undefined;
}

/** What {@linkcode persistLargeResult} returns. */
export interface PersistLargeResultOutcome {
  /** The content for the model: the original, or a preview when the text was persisted. */
  content: ToolResultContent;
  /** The absolute path of the file with the whole text, when it was persisted. */
  persistedPath?: string;
  /** The persisted file as written (from the writing handle), for {@linkcode SavedResults.record}. */
  persistedStats?: SavedFileStats;
  /** The text size of the original content (text blocks only). */
  originalChars: number;
  /** Why persisting failed; `content` is then the original, unchanged, so nothing is lost. */
  persistError?: string;
  /** Why the output was not saved (from `refuseToSave`); `content` is then cut, with a note. */
  notSavedReason?: string;
}

/** One result of a turn, as {@linkcode applyTurnBudget} takes it. */
export interface TurnBudgetItem {
  content: ToolResultContent;
  toolUseId: string;
  /** The tool's `maxResultSizeChars`; `Infinity` means this result is never persisted. */
  maxChars: number;
  /** As {@linkcode PersistLargeResultOptions.refuseToSave}; a refused result is cut to the preview size. */
  refuseToSave?: ((text: string) => string | undefined) | undefined;
}

/** Options of {@linkcode applyTurnBudget}. */
export interface ApplyTurnBudgetOptions {
  /** The session's state directory; files go to `<stateDir>/tool-results/`. */
  stateDir: string;
  /** The turn's results together may have this many characters of text. @default 200000 */
  budgetChars?: number;
  /** How many characters of the start each preview shows. @default 2000 */
  previewChars?: number;
  /** The tools the session has to read the files with (see {@linkcode PersistLargeResultOptions.readers}). @default Read and Grep */
  readers?: SavedOutputReaders | undefined;
}

/** One result of {@linkcode applyTurnBudget}, in the order of the items. */
export interface TurnBudgetOutcome {
  content: ToolResultContent;
  /** Set when this call persisted the result. */
  persistedPath?: string;
  /** The persisted file as written (from the writing handle), for {@linkcode SavedResults.record}. */
  persistedStats?: SavedFileStats;
  /** Why persisting this result failed; its content is then unchanged. */
  persistError?: string;
  /** Why this result was not saved but cut (from the item's `refuseToSave`). */
  notSavedReason?: string;
}

/**
 * Persists a result whose text is over `maxChars` to `<stateDir>/tool-results/<toolUseId>.txt` and
 * returns a preview in its place: a header with the size, the limit, the path and how to read more
 * (Read with offset/limit, or Grep), about `previewChars` characters of the start, and a line saying
 * how much was left out. Only text blocks count and are persisted; images and documents stay as
 * they are. The file is complete before this returns. When the write fails the original content is
 * returned unchanged with `persistError` set, so the output is never lost.
 *
 * @param content The result's content.
 * @param options The tool use id, the state directory, the limit and the preview size.
 * @returns The content for the model, the file's path when persisted, and the original size.
 * @throws {RangeError} When `maxChars` or `previewChars` is not a non-negative number.
 *
 * @example
 * ```ts
 * import { persistLargeResult } from '@toolshed/core/internal';
 *
 * const out = await persistLargeResult('x'.repeat(60_000), {
 *   toolUseId: 'toolu_1', stateDir: '/tmp/toolshed/s1', maxChars: 50_000,
 * });
 * out.persistedPath; // "/tmp/toolshed/s1/tool-results/toolu_1.txt"
 * ```
 */
export async function persistLargeResult(
  content: ToolResultContent,
  options: PersistLargeResultOptions,
): Promise<PersistLargeResultOutcome> {
  const { toolUseId, stateDir, maxChars } = options;
  const previewChars = options.previewChars ?? DEFAULT_PREVIEW_CHARS;
  checkLimit('maxChars', maxChars);
  checkPreviewChars(previewChars);
  const originalChars = textSize(content);
  if (originalChars <= maxChars) return { content, originalChars };

  const header = `Output too large: ${fmt(originalChars)} characters, over this tool's limit of ${fmt(maxChars)} characters.`;
  return await persistWithPreview(content, {
    toolUseId,
    stateDir,
    header,
    previewChars,
    originalChars,
    takenNames: undefined,
    refuseToSave: options.refuseToSave,
    keepIfRefused: maxChars,
    readers: options.readers,
  });
}

/**
 * Keeps one turn's results within a total text budget: when their text sizes together exceed
 * `budgetChars`, persists the largest first (as {@linkcode persistLargeResult} does) until the
 * total fits or nothing is left to persist. Results of tools with `maxChars: Infinity` and
 * results that are already previews are never persisted. Results come back in the order given.
 *
 * @param items The turn's results with their tool use ids and limits.
 * @param options The state directory, the budget and the preview size.
 * @returns One outcome per item, in the same order.
 * @throws {RangeError} When `budgetChars` or `previewChars` is not a non-negative number.
 *
 * @example
 * ```ts
 * import { applyTurnBudget } from '@toolshed/core/internal';
 * const big = 'x'.repeat(150_000);
 *
 * const out = await applyTurnBudget(
 *   [{ content: big, toolUseId: 't1', maxChars: 50_000 }, { content: 'ok', toolUseId: 't2', maxChars: 50_000 }],
 *   { stateDir: '/tmp/toolshed/s1', budgetChars: 200_000 },
 * );
 * ```
 */
export async function applyTurnBudget(
  items: readonly TurnBudgetItem[],
  options: ApplyTurnBudgetOptions,
): Promise<TurnBudgetOutcome[]> {
  const budgetChars = options.budgetChars ?? DEFAULT_TURN_BUDGET_CHARS;
  const previewChars = options.previewChars ?? DEFAULT_PREVIEW_CHARS;
  checkLimit('budgetChars', budgetChars);
  checkPreviewChars(previewChars);

  const outcomes: TurnBudgetOutcome[] = items.map((item) => ({ content: item.content }));
  const sizes = items.map((item) => textSize(item.content));
  let total = sizes.reduce((a, b) => a + b, 0);
  if (total <= budgetChars) return outcomes;

  const turnTotal = total;
  const candidates = items
    .map((item, index) => ({ item, index, size: sizes[index] ?? 0 }))
    .filter(({ item, size }) => item.maxChars !== Infinity && size > 0 && !isPersistedPreview(firstText(item.content)))
    // Array#sort is stable, so equal sizes keep the order of the turn.
    .sort((a, b) => b.size - a.size);

  // Two results of one turn with the same id must not land in the same file.
  const takenNames = new Set<string>();
  for (const { item, index, size } of candidates) {
    if (total <= budgetChars) break;
    const header =
      `Output too large for this turn: the turn's results came to ${fmt(turnTotal)} characters, ` +
      `over the turn budget of ${fmt(budgetChars)}; this result alone has ${fmt(size)} characters.`;
    const out = await persistWithPreview(item.content, {
      toolUseId: item.toolUseId,
      stateDir: options.stateDir,
      header,
      previewChars,
      originalChars: size,
      takenNames,
      refuseToSave: item.refuseToSave,
      keepIfRefused: previewChars,
      readers: options.readers,
    });
    const newSize = textSize(out.content);
    if (out.persistError !== undefined) {
      outcomes[index] = { content: item.content, persistError: out.persistError };
    } else if (out.notSavedReason !== undefined) {
      outcomes[index] = { content: out.content, notSavedReason: out.notSavedReason };
      total += newSize - size;
    } else if (out.persistedPath !== undefined) {
      outcomes[index] = { content: out.content, persistedPath: out.persistedPath };
      if (out.persistedStats) outcomes[index]!.persistedStats = out.persistedStats;
      total += newSize - size;
    }
  }
  return outcomes;
}

/**
 * Whether `text` is a preview made by {@linkcode persistLargeResult} or {@linkcode applyTurnBudget},
 * so that it is not persisted a second time.
 *
 * @param text The text of a result (for block content, its first text block).
 * @returns `true` for a preview.
 *
 * @example
 * ```ts
 * import { isPersistedPreview } from '@toolshed/core/internal';
 *
 * isPersistedPreview('plain output'); // false
 * ```
 */
export function isPersistedPreview(text: string): boolean {
  return (
    text.startsWith(`${PREVIEW_OPEN}\n`) &&
    text.endsWith(`\n${PREVIEW_CLOSE}`) &&
    text.includes('\nThe full output is saved to ')
  );
}

interface PersistWithPreviewOptions {
  toolUseId: string;
  stateDir: string;
  header: string;
  previewChars: number;
  originalChars: number;
  takenNames: Set<string> | undefined;
  refuseToSave: ((text: string) => string | undefined) | undefined;
  /** How many characters of the start a refused output keeps. */
  keepIfRefused: number;
  readers: SavedOutputReaders | undefined;
}

async function persistWithPreview(
  content: ToolResultContent,
  options: PersistWithPreviewOptions,
): Promise<PersistLargeResultOutcome> {
  const { originalChars } = options;
  const fullText =
    typeof content === 'string' ? content : content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
  const dir = join(resolve(options.stateDir), 'tool-results');
  const stem = fileStem(options.toolUseId);

  // An output that quotes a file a deny rule guards is never copied where that rule does not reach.
  const refusal = options.refuseToSave?.(fullText);
  if (refusal !== undefined) {
    const start = cutPreview(fullText, options.keepIfRefused);
    const note =
      `[${options.header} It was not saved to a file: ${refusal}. ` +
      `Only the first ${fmt(start.length)} characters are shown; narrow the call (a more specific pattern or path, ` +
      `or one that leaves that file out) to see the rest.]`;
    return { content: replaceText(content, `${start}\n${note}`), originalChars, notSavedReason: refusal };
  }

  // Lines too long for Read are folded (or JSON re-indented), and the header says so.
  const saved = savedText(fullText);
  const header = saved.note === '' ? options.header : `${options.header} ${saved.note}`;
  const readers = options.readers;
  // A preview that is no shorter than the output would only make the turn bigger.
  const sizeIfPersisted = buildPreview(fullText, {
    path: join(dir, `${stem}.txt`),
    header,
    previewChars: options.previewChars,
    readers,
  }).length;
  if (options.takenNames !== undefined && sizeIfPersisted >= originalChars) return { content, originalChars };

  let path: string;
  let stats: SavedFileStats;
  try {
    ({ path, stats } = await writeNew(dir, stem, saved.text, options.takenNames));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      content,
      originalChars,
      persistError:
        `could not write the ${fmt(originalChars)}-character output to '${dir}': ${reason}. ` +
        `Make the state directory '${options.stateDir}' writable, or choose another stateDir.`,
    };
  }
  options.takenNames?.add(path);
  const preview = buildPreview(fullText, { path, header, previewChars: options.previewChars, readers });
  return { content: replaceText(content, preview), persistedPath: path, persistedStats: stats, originalChars };
}

/**
 * The preview that stands for a saved output: header, path, how to read more, the start.
 *
 * @param fullText The output, or (for a streamed one) at least its first `previewChars` characters.
 * @param options Where the whole output is, the first line (why it was saved), how much of the
 *   start to show, the whole output's size when `fullText` is only its start, and the tools the
 *   session has to read the file with (default Read and Grep; the preview names only those).
 * @returns The preview text, which {@linkcode isPersistedPreview} recognizes.
 *
 * @example
 * ```ts
 * import { buildPreview } from './result_budget.ts';
 *
 * buildPreview('a\nb', { path: '/tmp/s1/tool-results/t1.txt', header: 'Output too large.', previewChars: 2000 });
 * ```
 */
export function buildPreview(
  fullText: string,
  options: {
    path: string;
    header: string;
    previewChars: number;
    totalChars?: number;
    readers?: SavedOutputReaders | undefined;
  },
): string {
  const { path, header, previewChars, totalChars = fullText.length } = options;
  const readers = options.readers ?? savedOutputReaders(undefined);
  const start = cutPreview(fullText, previewChars);
  const leftOut = totalChars - start.length;
  const tail =
    leftOut > 0
      ? `… ${fmt(leftOut)} more characters not shown here; the whole output is in the file above.`
      : '… nothing left out: the preview above is the whole output.';
  return [
    PREVIEW_OPEN,
    header,
    `The full output is saved to ${path}`,
    readMoreHint(path, readers),
    `Preview (first ${fmt(start.length)} characters):`,
    start,
    tail,
    PREVIEW_CLOSE,
  ].join('\n');
}

function cutPreview(text: string, previewChars: number): string {
  if (text.length <= previewChars) return text;
  const slice = text.slice(0, previewChars);
  const lastNewline = slice.lastIndexOf('\n');
  // A line boundary in the second half is "near"; further back the preview would lose too much.
  if (lastNewline > previewChars * 0.5) return slice.slice(0, lastNewline);
  // Never split a surrogate pair: half an emoji would become U+FFFD in the request.
  const last = slice.charCodeAt(slice.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? slice.slice(0, -1) : slice;
}

function replaceText(content: ToolResultContent, preview: string): ToolResultContent {
  if (typeof content === 'string') return preview;
  const out: ContentBlock[] = [];
  let placed = false;
  for (const block of content) {
    if (block.type !== 'text') out.push(block);
    else if (!placed) {
      out.push({ type: 'text', text: preview });
      placed = true;
    }
  }
  return out;
}

/**
 * Sanitizes a tool use id into a file stem that cannot leave the directory.
 *
 * @param toolUseId The id.
 * @returns The stem.
 *
 * @example
 * ```ts
 * import { fileStem } from './result_budget.ts';
 *
 * fileStem('toolu_1'); // 'toolu_1'
 * ```
 */
export function fileStem(toolUseId: string): string {
  const clean = toolUseId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_FILE_STEM);
  if (clean === toolUseId && clean.length > 0) return clean;
  // Ids that needed changes get a short hash, so `a/b` and `a.b` do not share a file.
  const hash = createHash('sha256').update(toolUseId).digest('hex').slice(0, 10);
  return clean.length > 0 ? `${clean}-${hash}` : `tool_result-${hash}`;
}

/**
 * Writes `text` to a temp file in `dir`, flushes it, then gives it its final name (see
 * {@linkcode linkIntoPlace}).
 */
async function writeNew(
  dir: string,
  stem: string,
  text: string,
  taken: Set<string> | undefined,
): Promise<{ path: string; stats: SavedFileStats }> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `.${stem}.${process.pid}.${randomUUID()}.tmp`);
  try {
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
      const path = await linkIntoPlace(tmp, { dir, stem, taken });
      await rm(tmp, { force: true });
      // What the session records as its own is what this handle wrote, once named and its temp
      // name gone (both change its times and link count): not whatever the path shows later.
      return { path, stats: savedFileStats(await handle.stat()) };
    } finally {
      await handle.close();
    }
  } finally {
    await rm(tmp, { force: true }).catch(() => undefined);
  }
}

/**
 * Gives a finished temp file in `dir` the name `<stem>.txt` (or `<stem>-<n>.txt` when taken).
 * `link` is used rather than `rename` so an existing file (an id used twice, a replayed
 * transcript) is never overwritten: the preview that pointed at it must stay true. The caller
 * removes `tmp` afterwards.
 *
 * @param tmp The temp file, complete.
 * @param options The results folder, the file stem ({@linkcode fileStem}) and the names already
 *   used in this turn.
 * @returns The final path.
 * @throws {Error} When every name is taken or the file system refuses.
 *
 * @example
 * ```ts
 * import { linkIntoPlace } from './result_budget.ts';
 *
 * await linkIntoPlace('/tmp/s1/tool-results/.toolu_1.tmp', { dir: '/tmp/s1/tool-results', stem: 'toolu_1' });
 * ```
 */
export async function linkIntoPlace(
  tmp: string,
  options: { dir: string; stem: string; taken?: Set<string> | undefined },
): Promise<string> {
  const { dir, stem, taken } = options;
  for (let attempt = 0; attempt < MAX_NAME_ATTEMPTS; attempt++) {
    const target = join(dir, attempt === 0 ? `${stem}.txt` : `${stem}-${attempt}.txt`);
    if (taken?.has(target)) continue;
    try {
      await link(tmp, target);
      return target;
    } catch (error) {
      if (errnoCode(error) === 'EEXIST') continue;
      // Filesystems without hard links: fall back to rename, which replaces an existing file.
      if (['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'].includes(errnoCode(error) ?? '')) {
        await rename(tmp, target);
        return target;
      }
      throw error;
    }
  }
  throw new Error(`${MAX_NAME_ATTEMPTS} files named '${stem}*.txt' already exist`);
}

function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/**
 * Whether {@linkcode persistLargeResult} would give `content` back as it is (its text is within
 * `maxChars`, a valid limit): the pipeline then skips it, as it runs per call.
 *
 * @param content A tool's result content.
 * @param maxChars The tool's limit.
 * @returns Whether the content fits.
 *
 * @example
 * ```ts
 * import { fitsResultLimit } from './result_budget.ts';
 *
 * fitsResultLimit('short', 100_000); // true
 * ```
 */
export function fitsResultLimit(content: ToolResultContent, maxChars: number): boolean {
  return typeof maxChars === 'number' && maxChars >= 0 && textSize(content) <= maxChars;
}

/**
 * Whether {@linkcode applyTurnBudget} would give every content back as it is (their text together
 * is within `budgetChars`, a valid budget): a turn's delivery then skips it.
 *
 * @param contents The turn's result contents.
 * @param budgetChars The turn budget.
 * @returns Whether they fit.
 *
 * @example
 * ```ts
 * import { fitsTurnBudget } from './result_budget.ts';
 *
 * fitsTurnBudget(['a', 'b'], 200_000); // true
 * ```
 */
export function fitsTurnBudget(contents: readonly ToolResultContent[], budgetChars: number): boolean {
  if (typeof budgetChars !== 'number' || !(budgetChars >= 0)) return false;
  let total = 0;
  for (const content of contents) total += textSize(content);
  return total <= budgetChars;
}

function textSize(content: ToolResultContent): number {
  if (typeof content === 'string') return content.length;
  let n = 0;
  for (const block of content) if (block.type === 'text') n += block.text.length;
  return n;
}

function firstText(content: ToolResultContent): string {
  if (typeof content === 'string') return content;
  for (const block of content) if (block.type === 'text') return block.text;
  return '';
}

function checkLimit(name: string, value: number): void {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative number or Infinity, got ${String(value)}.`);
  }
}

function checkPreviewChars(value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`previewChars must be a non-negative integer, got ${String(value)}.`);
  }
}

/**
 * A count as the previews print it (`58,042,206`; `unlimited` for Infinity).
 *
 * @param n The count.
 * @returns The text.
 *
 * @example
 * ```ts
 * import { formatCount } from './result_budget.ts';
 *
 * formatCount(50_000); // '50,000'
 * ```
 */
export function formatCount(n: number): string {
  return fmt(n);
}

function fmt(n: number): string {
  return n === Infinity ? 'unlimited' : formatCountOf(n);
}
