import { isUtf8 } from 'node:buffer';
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { buildTool, type FileState, type Tool, type ToolContext } from '@toolshed/core';
import { approvedRealPaths, hashContent } from '@toolshed/core/internal';
import { statSignature, writeFileAtomic, type FileSignature } from '../_atomic_write.ts';
import { checkReadFirst, recordWrite, type LineRange } from '../_freshness.ts';
import { hashOffThread } from '../_hash_off_thread.ts';
import { trustedHash } from '../_trusted_hash.ts';
import { withPathLock } from '../_path_lock.ts';
import {
  canonicalPath,
  deviceByName,
  editRuleFor,
  insideWorkingDirectories,
  missingFileMessage,
  specialKind,
  toAbsolute,
} from '../_paths.ts';
import { decodeText, encodeText, isBinary, readWholeFile, splitLines, type TextFormat } from '../_text_file.ts';
import { applyReplacements, countNewlines, findReplacements, noMatchMessage, replacementLines } from './_match.ts';
import { numberLines } from '../read/_text.ts';

/** Input of {@linkcode editTool}: Claude Code's fields. */
export const editInput = z.strictObject({
  file_path: z
    .string()
    .min(1)
    .describe('The path of the file to change (absolute, or relative to the working directory)'),
  old_string: z.string().describe('The exact text to replace; empty only to create a new file'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string)'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence of old_string (default false: it must occur exactly once)'),
});

/** What {@linkcode editTool} returns. */
export interface EditOutput {
  filePath: string;
  /** The file did not exist and was created (empty old_string). */
  created: boolean;
  replacements: number;
  /** How old_string was found: exactly, by the file's line endings, with quotes straightened, or without copied line numbers. */
  matchedBy: 'exact' | 'line endings' | 'quotes' | 'line numbers' | 'create';
  /** Numbered lines around the change in the new file. */
  snippet: string;
}

/** Files over this many bytes are not edited in memory. */
const MAX_EDIT_BYTES = 256 * 1024 * 1024;

const DESCRIPTION = `Performs an exact string replacement in a file.

- Read the file first in this session: Edit refuses a file you have not read, or that changed on disk since you read it (then Read it again). After reading only part of a long file (offset/limit), you can edit within the lines you read (reads of neighbouring parts add up).
- old_string must match the file exactly, including whitespace and indentation. Copy it from Read's output without the line-number prefix (spaces, the number, a tab).
- old_string must occur exactly once, or set replace_all to true to change every occurrence (useful for renaming). If it occurs several times, include more surrounding lines to make it unique.
- If old_string is not found, the error shows the closest region of the file and how it differs, so you can fix old_string.
- Curly quotes in the file match straight quotes in old_string; the file keeps its own quote style. Line endings (CRLF), a byte order mark, the final newline and the file mode are kept.
- An empty old_string creates a new file with new_string as its content. For notebooks (.ipynb) use NotebookEdit; to rewrite a whole file use Write.`;

/** A planned edit: everything needed to write, or why it cannot be done. */
type EditPlan =
  | { ok: false; message: string }
  | {
      ok: true;
      abs: string;
      key: string;
      /** The bytes the file had when planned; undefined for a create. */
      before: Buffer | undefined;
      /** Their content hash, taken once. */
      beforeHash?: string;
      /** The file's signature taken before it was read (see statSignature). */
      signature?: FileSignature | undefined;
      newText: string;
      /** The new bytes, in pieces (mostly views of `before` around the replacements; never joined). */
      newBytes: readonly Buffer[];
      /** The new text from the snippet's first line on, far enough for the snippet (made without joining the whole new text). */
      snippetText?: string;
      replacements: number;
      matchedBy: EditOutput['matchedBy'];
      firstLine: number;
      lastLine: number;
      /** After a partial Read: the lines the model has seen of the new text. */
      seen?: LineRange;
      /** The file-state cache's entry the plan was checked against. */
      entry?: Readonly<FileState>;
    };

/**
 * Replaces an exact string in a file the session has read: keeps line endings, BOM, final
 * newline and mode, writes atomically, and refuses a file that changed on disk since it was read
 * (judged by content, not mtime).
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * declare const session: Session;
 *
 * await session.run([{ type: 'tool_use', id: 't2', name: 'Edit', input: { file_path: 'a.ts', old_string: 'foo', new_string: 'bar' } }]);
 * ```
 */
export const editTool: Tool<typeof editInput, EditOutput> = buildTool<typeof editInput, EditOutput>({
  name: 'Edit',
  searchHint: 'edit a file, replace text, modify code, change string',
  description: DESCRIPTION,
  inputSchema: editInput,
  inputExamples: [{ file_path: 'src/main.ts', old_string: 'const retries = 3;', new_string: 'const retries = 5;' }],
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  getToolUseSummary: (input) => input.file_path,
  permissionSuggestions: (input) => [editRuleFor(input.file_path)],
  resources: (input, ctx) => [{ path: toAbsolute(input.file_path, ctx.cwd), access: 'write' }],
  async validateInput(input, ctx) {
    if (input.old_string === input.new_string) {
      return {
        result: false,
        message:
          'old_string and new_string are the same, so the edit would change nothing. Give the new text in new_string.',
      };
    }
    if (path.extname(input.file_path).toLowerCase() === '.ipynb') {
      return {
        result: false,
        message: `${input.file_path} is a Jupyter notebook. Use the NotebookEdit tool to change its cells.`,
      };
    }
    const plan = await planEdit(input, ctx);
    if (plan.ok) validatedPlans.set(input, plan);
    return plan.ok ? { result: true } : { result: false, message: plan.message };
  },
  mapResult(output) {
    if (output.created) return `Created ${output.filePath}:\n${output.snippet}`;
    const what = output.replacements === 1 ? '' : ` (${output.replacements} occurrences replaced)`;
    const how =
      output.matchedBy === 'quotes'
        ? ' old_string matched after straightening curly quotes; the file kept its quote style.'
        : output.matchedBy === 'line numbers'
          ? ' old_string matched after removing the line-number prefixes copied from Read.'
          : '';
    return `The file ${output.filePath} has been updated${what}.${how} Here is the result of running \`cat -n\` on a snippet of the edited file:\n${output.snippet}`;
  },
  renderResult: (output) =>
    output.created
      ? `Created ${output.filePath}`
      : `Updated ${output.filePath} (${output.replacements} replacement${output.replacements === 1 ? '' : 's'})`,
  async call(input, ctx) {
    const key = await canonicalPath(toAbsolute(input.file_path, ctx.cwd));
    return withPathLock(key, async () => {
      // Under the lock, the plan validateInput made holds only if the file is as it was then
      // (same signature, and not changed within a timestamp tick of that read): else planned again.
      const validated = validatedPlans.get(input);
      validatedPlans.delete(input);
      let plan: EditPlan;
      if (validated?.ok && (await planStillHolds(validated, ctx))) plan = validated;
      else plan = await planEdit(input, ctx);
      if (!plan.ok) throw new Error(plan.message.split('\n')[0]);
      // The new bytes' hash, for the file-state cache: on a worker thread, while they are written
      // and flushed to disk (on this thread it was a fifth of the Edit of a 20 MB file).
      const hashing = hashOffThread(plan.newBytes);
      // Where the permission check found the file: a link moved since must not move the write.
      const allowedTargets = approvedRealPaths(ctx, { path: plan.abs, access: 'write' });
      const written = await writeFileAtomic(
        plan.abs,
        plan.newBytes,
        plan.before === undefined
          ? { expectMissing: true, allowedTargets, flush: false }
          : { expectBytes: plan.before, allowedTargets, unchangedSince: plan.signature },
      );
      const newHash = await hashing;
      recordWrite(ctx.fileState, plan.key, {
        text: plan.newText,
        st: await stat(written),
        seen: plan.seen,
        contentHash: newHash,
      });
      lastWrites.set(ctx.fileState, {
        key: plan.key,
        bytes: plan.newBytes,
        hash: newHash,
      });
      const from = Math.max(1, plan.firstLine - 4);
      const to = Math.min(plan.lastLine + 4, from + 59);
      const output: EditOutput = {
        filePath: plan.abs,
        created: plan.before === undefined,
        replacements: plan.replacements,
        matchedBy: plan.matchedBy,
        snippet:
          plan.snippetText !== undefined
            ? numberLines(linesBetween(plan.snippetText, 1, to - from + 1), from)
            : numberLines(linesBetween(plan.newText, from, to), from),
      };
      return { data: output };
    });
  },
});

async function planEdit(input: z.output<typeof editInput>, ctx: ToolContext): Promise<EditPlan> {
  const abs = toAbsolute(input.file_path, ctx.cwd);
  const fail = (message: string): EditPlan => ({ ok: false, message });
  const device = deviceByName(abs);
  if (device) return fail(`Cannot edit ${abs}: it is ${device}, not a regular file.`);
  const key = await canonicalPath(abs);
  let st: Stats;
  try {
    st = await stat(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return fail(`Cannot edit ${abs}: ${(e as Error).message}`);
    if (input.old_string !== '') {
      // This runs in validateInput, before permissions: name neighbours only inside the working directories.
      const missing = await missingFileMessage(abs, ctx.cwd, {
        listNear: await insideWorkingDirectories(abs, ctx),
        ctx,
      });
      return fail(`${missing} To create a file, use Write, or Edit with an empty old_string.`);
    }
    const newBytes = [Buffer.from(input.new_string, 'utf8')];
    const lineCount = Math.max(1, splitLines(input.new_string).length);
    return {
      ok: true,
      abs,
      key,
      before: undefined,
      newText: input.new_string,
      newBytes,
      replacements: 1,
      matchedBy: 'create',
      firstLine: 1,
      lastLine: lineCount,
    };
  }
  if (st.isDirectory()) return fail(`${abs} is a directory; Edit changes files.`);
  const special = specialKind(st);
  if (special) return fail(`Cannot edit ${abs}: it is ${special}, not a regular file.`);
  if (st.size > MAX_EDIT_BYTES)
    return fail(
      `${abs} is ${(st.size / 1048576).toFixed(0)} MB; Edit changes files up to ${MAX_EDIT_BYTES / 1048576} MB. Use a stream editor (sed) through Bash.`,
    );
  // Taken before the read: a write after it changes the signature, so the plan is made again.
  const signature = await statSignature(abs);
  // Ordinary memory, which the allocator reuses: the new bytes are views of it, and hashOffThread
  // copies their large pieces into lent shared memory (a fresh SharedArrayBuffer per read cost
  // more in page faults than the copy).
  const before = await readWholeFile(abs);
  if (isBinary(before)) return fail(`Cannot edit ${abs}: it is a binary file (it has NUL bytes).`);
  const beforeHash = trustedHash(ctx.fileState.get(key), st) ?? lastWriteHash(ctx, key, before) ?? hashContent(before);
  const fresh = checkReadFirst(ctx.fileState, key, { bytes: before, st, contentHash: beforeHash });
  if (!fresh.ok) return fail(fresh.message);
  const { text, format } = decodeText(before);
  const newString = format.lineEnding === '\r\n' ? input.new_string.replace(/\r?\n/g, '\r\n') : input.new_string;

  if (input.old_string === '') {
    if (text !== '')
      return fail(
        `old_string is empty but ${abs} already has content. Give the text to replace in old_string, or use Write to replace the whole file.`,
      );
    return finish(abs, key, before, format, newString, 1, 'create', 1, Math.max(1, splitLines(newString).length));
  }
  const match = findReplacements(text, {
    oldString: input.old_string,
    newString,
    replaceAll: input.replace_all === true,
  });
  if (match.kind === 'none') return fail(noMatchMessage(text, { oldString: input.old_string, file: abs }));
  if (match.kind === 'many') {
    const shown = match.lines.slice(0, 20).join(', ') + (match.lines.length > 20 ? ', …' : '');
    return fail(
      `old_string occurs ${match.count} times in ${abs} (lines ${shown}). Add surrounding lines to old_string so it matches one place, or set replace_all to true to change all of them.`,
    );
  }
  const newText = applyReplacements(text, match.replacements);
  const { starts, ends, firstLine, lastLine, lineDelta } = replacementLines(text, match.replacements);
  let seen: LineRange | undefined;
  if (fresh.partial) {
    const from = fresh.entry.offset ?? 1;
    const to = from + (fresh.entry.limit ?? 0) - 1;
    const outside: number[] = [];
    starts.forEach((a, k) => {
      if (a < from || ends[k]! > to) outside.push(a);
    });
    if (outside.length > 0) {
      const where =
        outside.length === 1
          ? `line ${outside[0]}`
          : `lines ${outside.slice(0, 10).join(', ')}${outside.length > 10 ? ', …' : ''}`;
      const which =
        match.replacements.length === 1
          ? 'old_string is'
          : `${outside.length} of the ${match.replacements.length} occurrences of old_string are`;
      return fail(
        `You have read only ${describeLines(from, to)} of ${abs}, and ${which} at ${where}, outside them. ` +
          `Read that part first (Read with offset=${Math.max(1, outside[0]! - 20)} and limit=${Math.max(100, outside[outside.length - 1]! - outside[0]! + 41)}), then edit it.`,
      );
    }
    seen = { from, to: Math.max(from - 1, to + lineDelta) };
  }
  const plan = finish(abs, key, before, format, newText, match.replacements.length, match.how, firstLine, lastLine);
  if (plan.ok) {
    // The bytes around the replacements are the file's own: spliced, not encoded again (for a
    // 20 MB file, encoding the whole text was a fifth of an Edit).
    const spliced = spliceUtf8(before, format, text, match.replacements);
    plan.newBytes = spliced ?? [encodeText(newText, format)];
    plan.snippetText = snippetText(text, match.replacements, {
      from: Math.max(1, firstLine - 4),
      firstLine,
      lines: SNIPPET_LINES,
    });
    if (seen !== undefined) plan.seen = seen;
    plan.beforeHash = beforeHash;
    plan.signature = signature;
    plan.entry = fresh.entry;
  }
  return plan;
}

/**
 * What this session's Edit last wrote, per file-state cache: the next Edit of that file (often
 * right after, before its timestamps have settled) compares bytes instead of hashing them.
 */
const lastWrites = new WeakMap<object, { key: string; bytes: readonly Buffer[]; hash: string }>();

/** The hash of what the last Edit wrote, when the file still holds exactly those bytes. */
function lastWriteHash(ctx: ToolContext, key: string, bytes: Buffer): string | undefined {
  const last = lastWrites.get(ctx.fileState);
  return last !== undefined && last.key === key && equalsPieces(bytes, last.bytes) ? last.hash : undefined;
}

/** Whether `bytes` are the pieces' bytes joined, compared without joining them. */
function equalsPieces(bytes: Buffer, pieces: readonly Buffer[]): boolean {
  let at = 0;
  for (const piece of pieces) {
    if (at + piece.length > bytes.length || !bytes.subarray(at, at + piece.length).equals(piece)) return false;
    at += piece.length;
  }
  return at === bytes.length;
}

/**
 * Whether a plan validateInput made still holds under the lock: the file-state cache has the
 * same entry for the file, and the file has the bytes the plan was made from (told by its
 * signature when it had settled, else by reading them again and comparing: a plan is a
 * function of those two and the input).
 */
async function planStillHolds(plan: Extract<EditPlan, { ok: true }>, ctx: ToolContext): Promise<boolean> {
  if (plan.before === undefined || plan.entry === undefined) return false;
  if (ctx.fileState.get(plan.key) !== plan.entry) return false;
  const now = await statSignature(plan.abs);
  if (now === undefined) return false;
  if (plan.signature?.settled && now.signature === plan.signature.signature) return true;
  const bytes = await readWholeFile(plan.abs).catch(() => undefined);
  return bytes !== undefined && bytes.equals(plan.before);
}

/** Plans made by validateInput, for call to use when the file has not changed since. */
const validatedPlans = new WeakMap<object, EditPlan>();

/** Lines `from` to `to` (1-based, inclusive) of a text, without splitting all of it. */
function linesBetween(text: string, from: number, to: number): string[] {
  let at = 0;
  for (let line = 1; line < from && at !== -1; line++) {
    const nl = text.indexOf('\n', at);
    at = nl === -1 ? -1 : nl + 1;
  }
  const out: string[] = [];
  for (let line = from; line <= to && at !== -1 && at < text.length; line++) {
    const nl = text.indexOf('\n', at);
    const raw = text.slice(at, nl === -1 ? text.length : nl);
    out.push(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    at = nl === -1 ? -1 : nl + 1;
  }
  return out;
}

function describeLines(from: number, to: number): string {
  if (to < from) return 'none of the lines';
  return from === to ? `line ${from}` : `lines ${from}-${to}`;
}

function finish(
  abs: string,
  key: string,
  before: Buffer,
  format: TextFormat,
  newText: string,
  replacements: number,
  matchedBy: EditOutput['matchedBy'],
  firstLine: number,
  lastLine: number,
): EditPlan {
  return {
    ok: true,
    abs,
    key,
    before,
    newText,
    // Set by the caller (spliced from the old bytes where it can be) for a replacement.
    newBytes: matchedBy === 'create' ? [encodeText(newText, format)] : [],
    replacements,
    matchedBy,
    firstLine,
    lastLine,
  };
}

/** Pieces of new bytes written and hashed apart at most (a writev takes up to 1 024). */
const MAX_PIECES = 1024;
/** Lines the snippet after an edit shows at most. */
const SNIPPET_LINES = 60;

/**
 * The new text from line `from` on, at least `lines` lines of it (or to its end), built from the
 * old text and the replacements: the whole new text is a rope of them, and reading lines from it
 * would first copy all of it (20 MB for a 20 MB file). `from` is at or before `firstLine`, the
 * first replacement's line, so up to there old and new lines are the same.
 */
function snippetText(
  text: string,
  replacements: readonly { index: number; length: number; text: string }[],
  { from, firstLine, lines }: { from: number; firstLine: number; lines: number },
): string {
  // Back from the first replacement's line to line `from` (walking from the start of a 20 MB
  // text to a line in its middle cost as much as finding the old string).
  // (lastIndexOf clamps a negative start to 0 and would look at the first character.)
  const lineStart = (i: number) => (i <= 0 ? 0 : text.lastIndexOf('\n', i - 1) + 1);
  let at = lineStart(replacements[0]!.index);
  for (let line = firstLine; line > from && at > 0; line--) at = lineStart(at - 1);
  let out = '';
  let left = lines;
  // Up to `left` line breaks of text[start, end), or all of it.
  const take = (start: number, end: number) => {
    let cut = start;
    while (left > 0) {
      const nl = text.indexOf('\n', cut);
      if (nl === -1 || nl >= end) return text.slice(start, end);
      cut = nl + 1;
      left--;
    }
    return text.slice(start, cut);
  };
  for (const r of replacements) {
    if (r.index < at) continue;
    out += take(at, r.index);
    if (left <= 0) return out;
    out += r.text;
    left -= countNewlines(r.text);
    at = r.index + r.length;
    if (left <= 0) return out;
  }
  return out + take(at, text.length);
}

/**
 * The new bytes of a UTF-8 file: its old bytes with each replacement's bytes put in, the rest
 * copied as it is. Undefined where that is not the same as encoding the new text: UTF-16, or
 * bytes that are not valid UTF-8 (decoding changed them).
 */
function spliceUtf8(
  before: Buffer,
  format: TextFormat,
  text: string,
  replacements: readonly { index: number; length: number; text: string }[],
): Buffer[] | undefined {
  if (format.encoding !== 'utf8') return undefined;
  const start = format.bom ? 3 : 0;
  // In an ASCII file a character's index is its byte's (after the BOM): nothing to measure.
  const ascii = format.ascii === true;
  if (!ascii && !isUtf8(before.subarray(start))) return undefined;
  const bytesOf = (from: number, to: number) => (ascii ? to - from : Buffer.byteLength(text.slice(from, to)));
  const parts: Buffer[] = [];
  let byte = start;
  let char = 0;
  if (start > 0) parts.push(before.subarray(0, start));
  for (const r of replacements) {
    const from = byte + bytesOf(char, r.index);
    parts.push(before.subarray(byte, from), Buffer.from(r.text, 'utf8'));
    byte = from + bytesOf(r.index, r.index + r.length);
    char = r.index + r.length;
  }
  parts.push(before.subarray(byte));
  // Not joined: written with one writev, hashed piece by piece (joining 20 MB cost as much as
  // writing it); but thousands of pieces (replace_all) cost more one by one than joined.
  return parts.length > MAX_PIECES ? [Buffer.concat(parts)] : parts;
}
