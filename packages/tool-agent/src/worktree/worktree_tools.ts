import { mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildTool, ToolshedError, type AnyTool, type ToolContext } from '@toolshed/core';
import { z } from 'zod';
import { git } from './_git.ts';

declare module '@toolshed/core' {
  interface ToolshedErrorCodes {
    /** A git worktree could not be created or removed. */
    worktree_failed: true;
  }
}

/** Error code of a worktree that could not be made or removed. */
export const WORKTREE_FAILED = 'worktree_failed' as const;

/** Input of EnterWorktree. */
export const enterWorktreeInput = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/)
    .optional()
    .describe('A name for the worktree and its branch (letters, digits, ".", "_", "-"); a random one by default'),
});

/** Input of ExitWorktree. */
export const exitWorktreeInput = z.strictObject({
  action: z
    .enum(['keep', 'remove'])
    .describe('"keep" leaves the worktree and its branch on disk; "remove" deletes both'),
  discard_changes: z
    .boolean()
    .optional()
    .describe(
      'Needed with "remove" when the worktree has uncommitted files or new commits; otherwise the tool refuses and says what would be lost',
    ),
});

/** The worktree a session is in, as EnterWorktree made it. */
export interface WorktreeSession {
  worktreePath: string;
  branch: string;
  headCommit: string;
  originalCwd: string;
  originalWorkingDirectories: readonly string[];
}

/**
 * EnterWorktree and ExitWorktree. EnterWorktree makes a git worktree on a new branch
 * (`toolshed/<name>`) under the session's state folder and moves the session's cwd and working
 * directories there, so edits land in the worktree and not in the main checkout; ExitWorktree
 * moves back and keeps or removes it, refusing to remove uncommitted files or new commits unless
 * `discard_changes` is set.
 *
 * @returns The two tools, sharing the sessions' worktrees.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { createWorktreeTools } from '@toolshed/tool-agent';
 *
 * const session = await createSession({ cwd: '/repo', tools: createWorktreeTools(), permissions: { allow: ['EnterWorktree', 'ExitWorktree'] } });
 * await session.run([{ type: 'tool_use', id: 't1', name: 'EnterWorktree', input: { name: 'fix-parser' } }]);
 * ```
 */
export function createWorktreeTools(): AnyTool[] {
  const active = new Map<string, WorktreeSession>();

  const enter = buildTool({
    name: 'EnterWorktree',
    searchHint: 'isolated git worktree branch work separately',
    description:
      'Creates a git worktree on a new branch and moves this session into it, so your changes stay apart from the main checkout until they are merged. Leave it with ExitWorktree.',
    inputSchema: enterWorktreeInput,
    async validateInput(_input, ctx) {
      const current = active.get(ctx.sessionId);
      if (current)
        return {
          result: false,
          message: `The session is already in the worktree ${current.worktreePath}; leave it with ExitWorktree first.`,
        };
      const top = await git(['rev-parse', '--show-toplevel'], {
        cwd: ctx.cwd,
        trusted: ctx.projectTrusted === true,
        signal: ctx.signal,
      });
      if (top.code !== 0)
        return {
          result: false,
          message: `The working directory ${ctx.cwd} is not inside a git repository, so no worktree can be made.`,
        };
      const head = await git(['rev-parse', '--verify', 'HEAD'], {
        cwd: ctx.cwd,
        trusted: ctx.projectTrusted === true,
        signal: ctx.signal,
      });
      if (head.code !== 0)
        return { result: false, message: 'The repository has no commit yet; commit once before making a worktree.' };
      return { result: true };
    },
    async call({ name }, ctx) {
      const made = await createGitWorktree({
        cwd: ctx.cwd,
        stateDir: ctx.stateDir,
        trusted: ctx.projectTrusted === true,
        ...(name ? { name } : {}),
        signal: ctx.signal,
      });
      const { worktreePath, branch, headCommit, cwd, repoTop: realTop } = made;
      const state: WorktreeSession = {
        worktreePath,
        branch,
        headCommit,
        originalCwd: ctx.cwd,
        originalWorkingDirectories: ctx.permissions.workingDirectories,
      };
      ctx.onClose(() => void active.delete(ctx.sessionId));
      active.set(ctx.sessionId, state);
      return {
        data: `Created the worktree ${worktreePath} on branch ${branch} (from ${headCommit.slice(0, 12)}); the session now works in ${cwd}. Commit there; leave with ExitWorktree. Closing the session keeps it.`,
        contextModifier: (next: ToolContext) => ({
          ...next,
          cwd,
          permissions: {
            ...next.permissions,
            workingDirectories: [
              cwd,
              ...next.permissions.workingDirectories.filter((d) => d !== state.originalCwd && !isInside(d, realTop)),
            ],
          },
        }),
      };
    },
  });

  const exit = buildTool({
    name: 'ExitWorktree',
    searchHint: 'leave the worktree keep or remove it',
    description:
      'Leaves the worktree EnterWorktree made and returns the session to where it was. "keep" leaves the worktree and branch on disk; "remove" deletes both, and refuses if that would lose uncommitted files or new commits unless discard_changes is true.',
    inputSchema: exitWorktreeInput,
    isDestructive: (input) => input.action === 'remove',
    async validateInput({ action, discard_changes }, ctx) {
      const state = active.get(ctx.sessionId);
      if (!state)
        return {
          result: false,
          message:
            'The session is not in a worktree made by EnterWorktree, so there is nothing to leave; nothing was changed.',
        };
      if (action === 'remove' && discard_changes !== true) {
        const lost = await unsavedWork(state, { trusted: ctx.projectTrusted === true, signal: ctx.signal });
        if (lost === undefined)
          return {
            result: false,
            message: `Could not tell whether ${state.worktreePath} has unsaved work; nothing was removed. Use action "keep", or discard_changes: true to remove it anyway.`,
          };
        if (lost)
          return {
            result: false,
            message: `The worktree has ${lost}; removing it would lose that. Ask the user, then call again with discard_changes: true, or use action "keep".`,
          };
      }
      return { result: true };
    },
    async call({ action }, ctx) {
      const state = active.get(ctx.sessionId)!;
      active.delete(ctx.sessionId);
      const trusted = ctx.projectTrusted === true;
      let message = `Left the worktree; the session is back in ${state.originalCwd}.`;
      if (action === 'keep') {
        message += ` The work stays in ${state.worktreePath} on branch ${state.branch}.`;
      } else {
        const top =
          (await git(['rev-parse', '--show-toplevel'], { cwd: state.originalCwd, trusted })).stdout.trim() ||
          state.originalCwd;
        const removed = await git(['worktree', 'remove', '--force', state.worktreePath], { cwd: top, trusted });
        if (removed.code !== 0)
          throw new ToolshedError(
            WORKTREE_FAILED,
            `git worktree remove failed: ${firstLine(removed.stderr)}; the worktree is still at ${state.worktreePath}.`,
          );
        await git(['branch', '-D', state.branch], { cwd: top, trusted });
        message += ` Removed the worktree ${state.worktreePath} and its branch ${state.branch}.`;
      }
      return {
        data: message,
        contextModifier: (next: ToolContext) => ({
          ...next,
          cwd: state.originalCwd,
          permissions: { ...next.permissions, workingDirectories: state.originalWorkingDirectories },
        }),
      };
    },
  });

  return [enter, exit];
}

/** A git worktree made by {@linkcode createGitWorktree}. */
export interface GitWorktree {
  /** The worktree's folder (symlinks resolved). */
  worktreePath: string;
  /** Its new branch, `toolshed/<name>`. */
  branch: string;
  /** The commit it started from. */
  headCommit: string;
  /** The folder in the worktree that matches the cwd it was made from. */
  cwd: string;
  /** The main checkout's top folder (symlinks resolved). */
  repoTop: string;
}

/**
 * Makes a git worktree of the repository holding `cwd` on a new branch `toolshed/<name>`, under
 * `<stateDir>/worktrees/<name>` (kept when the session closes). Used by EnterWorktree and by the
 * Agent tool's `isolation: "worktree"`.
 *
 * @param options Where from, where to, the name and an abort signal.
 * @returns The worktree.
 * @throws {ToolshedError} `worktree_failed` when `cwd` is not in a repository with a commit, or git refuses.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { createGitWorktree } from './worktree_tools.ts';
 * declare const ctx: ToolContext;
 *
 * const wt = await createGitWorktree({ cwd: '/repo/src', stateDir: ctx.stateDir, name: 'fix' });
 * wt.cwd; // '<stateDir>/worktrees/fix/src'
 * ```
 */
export async function createGitWorktree(options: {
  cwd: string;
  stateDir: string;
  name?: string;
  /** Whether the user trusts the project: if not, git runs none of its hooks, filters or fsmonitor. @default false */
  trusted?: boolean;
  signal?: AbortSignal;
}): Promise<GitWorktree> {
  const { cwd: from, stateDir, signal } = options;
  const trusted = options.trusted === true;
  const top = await git(['rev-parse', '--show-toplevel'], { cwd: from, trusted, signal });
  if (top.code !== 0)
    throw new ToolshedError(
      WORKTREE_FAILED,
      `The working directory ${from} is not inside a git repository, so no worktree can be made.`,
    );
  const head = await git(['rev-parse', '--verify', 'HEAD'], { cwd: from, trusted, signal });
  if (head.code !== 0)
    throw new ToolshedError(WORKTREE_FAILED, 'The repository has no commit yet; commit once before making a worktree.');
  const headCommit = head.stdout.trim();
  const label = options.name ?? `wt-${randomBytes(4).toString('hex')}`;
  const branch = `toolshed/${label}`;
  const parent = path.join(stateDir, 'worktrees');
  await mkdir(parent, { recursive: true, mode: 0o700 });
  const target = path.join(parent, label);
  const made = await git(['worktree', 'add', '-b', branch, target, headCommit], {
    cwd: top.stdout.trim(),
    trusted,
    signal,
  });
  if (made.code !== 0)
    throw new ToolshedError(
      WORKTREE_FAILED,
      `git worktree add failed: ${firstLine(made.stderr)}. Choose another name, or remove the branch "${branch}" if it is left over.`,
    );
  const worktreePath = await realpath(target);
  const repoTop = await realpath(top.stdout.trim());
  const sub = path.relative(repoTop, await realpath(from));
  return { worktreePath, branch, headCommit, cwd: path.join(worktreePath, sub), repoTop };
}

async function unsavedWork(
  state: WorktreeSession,
  { trusted, signal }: { trusted: boolean; signal: AbortSignal },
): Promise<string | undefined | ''> {
  const status = await git(['status', '--porcelain'], { cwd: state.worktreePath, trusted, signal });
  if (status.code !== 0) return undefined;
  // The branch is deleted too: its commits count even when HEAD was moved off it.
  const branch = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${state.branch}`], {
    cwd: state.worktreePath,
    trusted,
    signal,
  });
  const tips = branch.code === 0 ? ['HEAD', `refs/heads/${state.branch}`] : ['HEAD'];
  const commits = await git(['rev-list', '--count', ...tips, '--not', state.headCommit], {
    cwd: state.worktreePath,
    trusted,
    signal,
  });
  if (commits.code !== 0) return undefined;
  const files = status.stdout.split('\n').filter((l) => l.trim()).length;
  const count = Number.parseInt(commits.stdout.trim(), 10) || 0;
  const parts = [
    files ? `${files} uncommitted file${files === 1 ? '' : 's'}` : '',
    count ? `${count} new commit${count === 1 ? '' : 's'} on ${state.branch}` : '',
  ].filter(Boolean);
  return parts.join(' and ');
}

function isInside(dir: string, top: string): boolean {
  const rel = path.relative(top, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] || 'no message';
}
