import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { buildTool, type Tool, type ToolContext } from '@toolshed/core';
import { approvedRealPaths } from '@toolshed/core/internal';
import { writeFileAtomic } from '../_atomic_write.ts';
import { diffLines, formatDiff } from '../_diff.ts';
import { checkReadFirst, recordWrite } from '../_freshness.ts';
import { hashInBackground, sharedUtf8 } from '../_hash_off_thread.ts';
import { withPathLock } from '../_path_lock.ts';
import { giveBackScratch } from '../_shared_scratch.ts';
import { canonicalPath, deviceByName, editRuleFor, specialKind, toAbsolute } from '../_paths.ts';
import { countLines, decodeText, encodeText, isBinary, readWholeFile, splitLines } from '../_text_file.ts';
import { DEFAULT_READ_LINES, MAX_READ_OUTPUT_CHARS } from '../read/_text.ts';

/** Input of {@linkcode writeTool}: Claude Code's fields. */
export const writeInput = z.strictObject({
  file_path: z
    .string()
    .min(1)
    .describe('The path of the file to write (absolute, or relative to the working directory)'),
  content: z.string().describe('The whole content of the file'),
});

/** What {@linkcode writeTool} returns. */
export interface WriteOutput {
  type: 'create' | 'update';
  filePath: string;
  lines: number;
  /** For an update: lines added and removed. */
  added?: number;
  removed?: number;
  /** For an update: a short diff of the change. */
  diff?: string;
}

const DESCRIPTION = `Writes a file, creating it (and its parent folders) or replacing all of its content.

- To change part of an existing file, prefer Edit: it sends only the change.
- An existing file must have been read in this session with Read first (all of it: Write replaces every line), and not changed on disk since; otherwise Write refuses (Read it again).
- The write is atomic: readers never see half a file. An existing file keeps its mode, its byte order mark and, when content has no CR at all, its CRLF line endings.
- Do not create documentation or README files unless asked.`;

type WritePlan =
  | { ok: false; message: string }
  | {
      ok: true;
      abs: string;
      key: string;
      before: Buffer | undefined;
      beforeText: string | undefined;
      newBytes: Buffer;
      newText: string;
    };

/**
 * Creates or overwrites a file atomically; an existing file must have been read first and be
 * unchanged since. Returns whether it created or updated, with a short diff for an update.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * declare const session: Session;
 *
 * await session.run([{ type: 'tool_use', id: 't1', name: 'Write', input: { file_path: 'notes/todo.md', content: '# Todo\n' } }]);
 * ```
 */
export const writeTool: Tool<typeof writeInput, WriteOutput> = buildTool<typeof writeInput, WriteOutput>({
  name: 'Write',
  searchHint: 'write a file, create a new file, overwrite file contents',
  description: DESCRIPTION,
  inputSchema: writeInput,
  inputExamples: [{ file_path: 'src/config.json', content: '{\n  "debug": false\n}\n' }],
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  getToolUseSummary: (input) => input.file_path,
  permissionSuggestions: (input) => [editRuleFor(input.file_path)],
  resources: (input, ctx) => [{ path: toAbsolute(input.file_path, ctx.cwd), access: 'write' }],
  async validateInput(input, ctx) {
    const plan = await planWrite(input, ctx);
    if (plan.ok) validatedPlans.set(input, plan);
    return plan.ok ? { result: true } : { result: false, message: plan.message };
  },
  mapResult(output) {
    if (output.type === 'create')
      return `Created ${output.filePath} (${output.lines} line${output.lines === 1 ? '' : 's'}).`;
    if (output.added === undefined)
      return `Updated ${output.filePath}, which was a binary file (${output.lines} line${output.lines === 1 ? '' : 's'} now).`;
    const summary = `Updated ${output.filePath}: ${output.added} line${output.added === 1 ? '' : 's'} added, ${output.removed} removed (${output.lines} line${output.lines === 1 ? '' : 's'} now).`;
    return output.diff ? `${summary}\n${output.diff}` : `${summary} The content is unchanged.`;
  },
  renderResult: (output) => `${output.type === 'create' ? 'Created' : 'Updated'} ${output.filePath}`,
  async call(input, ctx) {
    const key = await canonicalPath(toAbsolute(input.file_path, ctx.cwd));
    return withPathLock(key, async () => {
      // A create planned by validateInput needs nothing from the disk: it is made again only if
      // the file appeared meanwhile (writeFileAtomic refuses that too). An update is planned again.
      const validated = validatedPlans.get(input);
      validatedPlans.delete(input);
      const plan =
        validated?.ok && validated.before === undefined && !(await stat(validated.abs).catch(() => undefined))
          ? validated
          : await planWrite(input, ctx);
      if (validated?.ok && validated !== plan) giveBackScratch(validated.newBytes);
      if (!plan.ok) throw new Error(plan.message.split('\n')[0]);
      let lines = 0;
      const whileFlushing = () => {
        lines = countLines(plan.newText);
      };
      // Where the permission check found the file: a link moved since must not move the write.
      const allowedTargets = approvedRealPaths(ctx, { path: plan.abs, access: 'write' });
      let written: string;
      try {
        written = await writeFileAtomic(
          plan.abs,
          plan.newBytes,
          plan.before === undefined
            ? { expectMissing: true, allowedTargets, whileFlushing, flush: false }
            : { expectBytes: plan.before, allowedTargets, whileFlushing },
        );
      } catch (e) {
        giveBackScratch(plan.newBytes);
        throw e;
      }
      // The new bytes' hash, for the file-state cache, is taken on a worker thread after the write
      // (awaited, it was half of the Write of 20 MB; taken during the write, it slowed the write as
      // much): the entry is recorded now, and a use of it before the worker has answered hashes on
      // this thread. The bytes' memory is lent (sharedUtf8): it goes back once the worker is done
      // with it, not before (lent again meanwhile, another Write's text would be hashed instead).
      const bytes = plan.newBytes;
      const contentHash = hashInBackground(bytes, () => giveBackScratch(bytes));
      recordWrite(ctx.fileState, plan.key, { text: plan.newText, st: await stat(written), contentHash });
      if (plan.before === undefined)
        return { data: { type: 'create', filePath: plan.abs, lines } satisfies WriteOutput };
      const newLines = splitLines(plan.newText);
      if (plan.beforeText === undefined)
        return { data: { type: 'update', filePath: plan.abs, lines: newLines.length } satisfies WriteOutput };
      const diff = diffLines(splitLines(plan.beforeText), newLines);
      const output: WriteOutput = {
        type: 'update',
        filePath: plan.abs,
        lines: newLines.length,
        added: diff.filter((d) => d.op === '+').length,
        removed: diff.filter((d) => d.op === '-').length,
        diff: formatDiff(diff, { context: 1, maxLines: 30 }),
      };
      return { data: output };
    });
  },
});

/** Plans made by validateInput, for call to use when nothing changed since. */
const validatedPlans = new WeakMap<object, WritePlan>();

async function planWrite(input: z.output<typeof writeInput>, ctx: ToolContext): Promise<WritePlan> {
  const abs = toAbsolute(input.file_path, ctx.cwd);
  const fail = (message: string): WritePlan => ({ ok: false, message });
  const device = deviceByName(abs);
  if (device) return fail(`Cannot write ${abs}: it is ${device}, not a regular file.`);
  const key = await canonicalPath(abs);
  let st: Stats | undefined;
  try {
    st = await stat(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') {
      if (code === 'ENOTDIR') return fail(`Cannot write ${abs}: a part of its folder path is a file, not a folder.`);
      return fail(`Cannot write ${abs}: ${(e as Error).message}`);
    }
  }
  if (!st)
    return {
      ok: true,
      abs,
      key,
      before: undefined,
      beforeText: undefined,
      newBytes: sharedUtf8(input.content),
      newText: input.content,
    };
  if (st.isDirectory()) return fail(`${abs} is a directory; give the path of a file inside it.`);
  const special = specialKind(st);
  if (special) return fail(`Cannot write ${abs}: it is ${special}, not a regular file.`);
  const before = await readWholeFile(abs);
  const fresh = checkReadFirst(ctx.fileState, key, { bytes: before, st });
  if (!fresh.ok && isBinary(before) && ctx.fileState.get(key) === undefined) {
    // Read refuses binary files, so "read it first" would send the model in a circle.
    return fail(
      `${abs} is a binary file, which Read cannot show, so Write will not replace it unseen. ` +
        'If it should be replaced, remove it first (rm through Bash, which asks for approval), then Write the new file.',
    );
  }
  if (!fresh.ok) return fail(fresh.message.replace('then make the change', 'then write it'));
  if (fresh.partial) {
    // Write replaces every line, so it needs every line read: otherwise it would drop text the model never saw.
    const from = fresh.entry.offset ?? 1;
    const to = from + (fresh.entry.limit ?? 0) - 1;
    const total = splitLines(decodeText(before).text).length;
    const next = from > 1 ? `offset=1 and limit=${from - 1}` : `offset=${to + 1}`;
    const head = `You have read only lines ${from}-${to} of the ${total} lines of ${abs}, and Write replaces the whole file. `;
    if (total > DEFAULT_READ_LINES || st.size > MAX_READ_OUTPUT_CHARS) {
      // More than one Read shows: reading all of it to rewrite it is rarely what is wanted.
      return fail(
        `${head}It is larger than one Read shows, so use Edit to change the lines you read (Edit needs only the text it replaces). ` +
          `To replace the whole file, Read the rest first (Read with ${next}; reads of an unchanged file add up), then Write.`,
      );
    }
    return fail(
      `${head}Read the rest first (Read with ${next}; reads of an unchanged file add up), or change the lines you read with Edit.`,
    );
  }
  if (isBinary(before)) {
    return {
      ok: true,
      abs,
      key,
      before,
      beforeText: undefined,
      newBytes: Buffer.from(input.content, 'utf8'),
      newText: input.content,
    };
  }
  const { text, format } = decodeText(before);
  // A model writes LF; a CRLF file stays CRLF unless the new content chose its own line endings.
  const newText =
    format.lineEnding === '\r\n' && !input.content.includes('\r')
      ? input.content.replace(/\n/g, '\r\n')
      : input.content;
  return { ok: true, abs, key, before, beforeText: text, newBytes: encodeText(newText, format), newText };
}
