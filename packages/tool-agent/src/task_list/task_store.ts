import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { readShortText } from '../_read_short_text.ts';

/** Where a task is. */
export type TaskStatus = 'pending' | 'in_progress' | 'completed';

/** One task of a file-backed task list, as stored in `<list folder>/<id>.json`. */
export interface TaskRecord {
  /** A number as text, from the list's high-water mark; never reused. */
  id: string;
  subject: string;
  description: string;
  /** Present continuous form shown while the task runs ("Running tests"). */
  activeForm?: string;
  status: TaskStatus;
  /** Who claimed it (an agent's name). */
  owner?: string;
  /** Ids of tasks that cannot start before this one is completed. */
  blocks: string[];
  /** Ids of tasks that must be completed before this one can start. */
  blockedBy: string[];
  metadata?: Record<string, unknown>;
}

/** What {@linkcode TaskStore.update} may change. */
export interface TaskChanges {
  subject?: string;
  description?: string;
  activeForm?: string;
  status?: TaskStatus;
  /** Claims the task for this owner (refused when someone else holds it, it is done, or it is blocked). */
  owner?: string;
  addBlocks?: readonly string[];
  addBlockedBy?: readonly string[];
  metadata?: Record<string, unknown>;
}

/** A task file that could not be read as a task; it is reported and never overwritten. */
export interface CorruptTask {
  id: string;
  file: string;
  problem: string;
}

/** Why an update was refused; `message` says it for the model. */
export type TaskUpdateRefusal =
  | { reason: 'not_found'; message: string }
  | { reason: 'corrupt'; message: string }
  | { reason: 'already_claimed'; owner: string; message: string }
  | { reason: 'already_completed'; message: string }
  | { reason: 'blocked'; blockedBy: string[]; message: string }
  | { reason: 'invalid'; message: string };

/** The outcome of {@linkcode TaskStore.update}. */
export type TaskUpdateOutcome = { ok: true; task: TaskRecord; changed: string[] } | ({ ok: false } & TaskUpdateRefusal);

/** Options of {@linkcode TaskStore}. */
export interface TaskStoreOptions {
  /**
   * A lock older than this is taken to belong to a process that died, and is recovered
   * (proper-lockfile refreshes a live holder's lock every `staleMs / 2`). At least 2000.
   * @default 10000
   */
  staleMs?: number;
}

const HIGH_WATER_FILE = '.highwatermark';
const LOCK_FILE = '.lock';
const TASK_FILE = /^([1-9][0-9]{0,15})\.json$/;

/**
 * A task list kept as one JSON file per task in a folder, shared by every process that opens
 * the same folder. Every read-modify-write holds the list's lock (proper-lockfile: a lock
 * folder refreshed while held, so a killed holder's lock goes stale and is recovered), ids come
 * from a high-water mark and are never reused, files are replaced atomically (temp file +
 * rename), and a file that does not parse is reported, never overwritten.
 *
 * @example
 * ```ts
 * import { TaskStore } from '@toolshed/tool-agent';
 *
 * const store = new TaskStore('/home/me/.toolshed/tasks/my-project-1a2b3c4d');
 * const task = await store.create({ subject: 'Run the tests', description: 'pnpm test, fix what fails' });
 * await store.update(task.id, { owner: 'tester', status: 'in_progress' });
 * ```
 */
export class TaskStore {
  readonly dir: string;
  readonly #staleMs: number;

  /**
   * @param dir The list's folder (created 0700 on first write).
   * @param options Lock staleness.
   */
  constructor(dir: string, options: TaskStoreOptions = {}) {
    if (typeof dir !== 'string' || !path.isAbsolute(dir))
      throw new TypeError(`TaskStore takes an absolute folder path, got ${JSON.stringify(dir)}`);
    const staleMs = options.staleMs ?? 10_000;
    if (!Number.isFinite(staleMs) || staleMs < 2000)
      throw new RangeError(`staleMs must be at least 2000 (proper-lockfile's minimum), got ${staleMs}`);
    this.dir = dir;
    this.#staleMs = staleMs;
  }

  /**
   * Adds a task with the next id.
   *
   * @param data The task's subject, description and optional fields.
   * @returns The stored task.
   */
  async create(
    data: Pick<TaskRecord, 'subject' | 'description'> & Partial<Pick<TaskRecord, 'activeForm' | 'metadata'>>,
  ): Promise<TaskRecord> {
    return this.#locked(async () => {
      const id = String((await this.#highestId()) + 1);
      const task: TaskRecord = {
        id,
        subject: data.subject,
        description: data.description,
        ...(data.activeForm !== undefined ? { activeForm: data.activeForm } : {}),
        status: 'pending',
        blocks: [],
        blockedBy: [],
        ...(data.metadata !== undefined ? { metadata: data.metadata } : {}),
      };
      // The mark goes first: a crash between the two writes wastes an id, never reuses one.
      await this.#writeAtomic(HIGH_WATER_FILE, id);
      await this.#writeAtomic(`${id}.json`, `${JSON.stringify(task, null, 2)}\n`);
      return task;
    });
  }

  /**
   * One task.
   *
   * @param id The task's id (`"3"`; a leading `#` is accepted).
   * @returns The task, `undefined` when there is none, or the problem when its file is corrupt.
   */
  async get(id: string): Promise<TaskRecord | CorruptTask | undefined> {
    const key = normalizeId(id);
    if (key === undefined) return undefined;
    return this.#read(key);
  }

  /**
   * Every task, by id, and the files that could not be read.
   *
   * @returns The tasks in id order and the corrupt files.
   */
  async list(): Promise<{ tasks: TaskRecord[]; corrupt: CorruptTask[] }> {
    const tasks: TaskRecord[] = [];
    const corrupt: CorruptTask[] = [];
    for (const id of await this.#ids()) {
      const read = await this.#read(id);
      if (read === undefined) continue;
      if (isCorrupt(read)) corrupt.push(read);
      else tasks.push(read);
    }
    return { tasks, corrupt };
  }

  /**
   * Changes a task under the list's lock; both sides of a new `blocks` / `blockedBy` link are
   * written. Setting `owner` claims the task: refused when another owner holds it, when it is
   * completed, or while a task it is blocked by is open.
   *
   * @param id The task's id.
   * @param changes What to change.
   * @returns The updated task and the names of the fields that changed, or why nothing was done.
   */
  async update(id: string, changes: TaskChanges): Promise<TaskUpdateOutcome> {
    const key = normalizeId(id);
    if (key === undefined)
      return { ok: false, reason: 'not_found', message: `"${id}" is not a task id; ids are numbers such as "3".` };
    return this.#locked(async () => {
      const current = await this.#read(key);
      if (current === undefined) return { ok: false, reason: 'not_found', message: await this.#notFound(key) };
      if (isCorrupt(current)) return { ok: false, reason: 'corrupt', message: corruptMessage(current) };
      const refusal = await this.#claimRefusal(current, changes);
      if (refusal) return { ok: false, ...refusal };
      const links = await this.#linkedTasks(current, changes);
      if ('reason' in links) return { ok: false, ...links };
      const next: TaskRecord = { ...current, blocks: [...current.blocks], blockedBy: [...current.blockedBy] };
      const changed: string[] = [];
      for (const field of ['subject', 'description', 'activeForm', 'status', 'owner'] as const) {
        const value = changes[field];
        if (value !== undefined && value !== current[field]) {
          (next as unknown as Record<string, unknown>)[field] = value;
          changed.push(field);
        }
      }
      if (changes.metadata !== undefined) {
        next.metadata = { ...current.metadata, ...changes.metadata };
        changed.push('metadata');
      }
      for (const other of links.blocks) {
        if (!next.blocks.includes(other.id)) next.blocks.push(other.id);
        if (!other.blockedBy.includes(key)) other.blockedBy.push(key);
      }
      for (const other of links.blockedBy) {
        if (!next.blockedBy.includes(other.id)) next.blockedBy.push(other.id);
        if (!other.blocks.includes(key)) other.blocks.push(key);
      }
      if (links.blocks.length) changed.push('blocks');
      if (links.blockedBy.length) changed.push('blockedBy');
      for (const other of [...links.blocks, ...links.blockedBy]) await this.#writeTask(other);
      await this.#writeTask(next);
      return { ok: true, task: next, changed };
    });
  }

  /**
   * Deletes a task and the links other tasks had to it; its id is not reused.
   *
   * @param id The task's id.
   * @returns False when there was no such task.
   */
  async delete(id: string): Promise<boolean> {
    const key = normalizeId(id);
    if (key === undefined) return false;
    return this.#locked(async () => {
      const current = await this.#read(key);
      if (current === undefined) return false;
      const highest = await this.#highestId();
      await this.#writeAtomic(HIGH_WATER_FILE, String(highest));
      await rm(path.join(this.dir, `${key}.json`), { force: true });
      for (const task of (await this.list()).tasks) {
        if (task.blocks.includes(key) || task.blockedBy.includes(key)) {
          await this.#writeTask({
            ...task,
            blocks: task.blocks.filter((t) => t !== key),
            blockedBy: task.blockedBy.filter((t) => t !== key),
          });
        }
      }
      return true;
    });
  }

  async #claimRefusal(task: TaskRecord, changes: TaskChanges): Promise<TaskUpdateRefusal | undefined> {
    const claiming = changes.owner !== undefined && changes.owner !== task.owner;
    if (!claiming) return undefined;
    if (task.owner !== undefined && task.owner !== '') {
      return {
        reason: 'already_claimed',
        owner: task.owner,
        message: `Task #${task.id} is already claimed by ${task.owner}; pick another task (TaskList shows the unclaimed ones).`,
      };
    }
    if (task.status === 'completed')
      return {
        reason: 'already_completed',
        message: `Task #${task.id} is already completed; there is nothing left to claim.`,
      };
    const open: string[] = [];
    for (const blocker of task.blockedBy) {
      const read = await this.#read(blocker);
      if (read !== undefined && (isCorrupt(read) || read.status !== 'completed')) open.push(blocker);
    }
    if (open.length) {
      const names = await Promise.all(
        open.map(async (b) => {
          const read = await this.#read(b);
          return read && !isCorrupt(read) ? `#${b} "${read.subject}" (${read.status})` : `#${b}`;
        }),
      );
      return {
        reason: 'blocked',
        blockedBy: open,
        message: `Task #${task.id} is blocked by open tasks: ${names.join(', ')}. Complete those first, or pick a task that is not blocked.`,
      };
    }
    return undefined;
  }

  async #linkedTasks(
    task: TaskRecord,
    changes: TaskChanges,
  ): Promise<{ blocks: TaskRecord[]; blockedBy: TaskRecord[] } | TaskUpdateRefusal> {
    const out = { blocks: [] as TaskRecord[], blockedBy: [] as TaskRecord[] };
    for (const [field, ids] of [
      ['blocks', changes.addBlocks ?? []],
      ['blockedBy', changes.addBlockedBy ?? []],
    ] as const) {
      for (const raw of ids) {
        const id = normalizeId(raw);
        if (id === task.id) return { reason: 'invalid', message: `Task #${task.id} cannot block itself.` };
        const other = id === undefined ? undefined : await this.#read(id);
        if (other === undefined)
          return {
            reason: 'invalid',
            message: `Cannot link task #${task.id} to "${raw}": ${id === undefined ? 'not a task id' : await this.#notFound(id)}`,
          };
        if (isCorrupt(other)) return { reason: 'corrupt', message: corruptMessage(other) };
        out[field].push(other);
      }
    }
    return out;
  }

  async #notFound(id: string): Promise<string> {
    const ids = await this.#ids();
    const have = ids.length === 0 ? 'The list is empty.' : `The list has ${ids.map((i) => `#${i}`).join(', ')}.`;
    return `Task #${id} was not found. ${have}`;
  }

  async #read(id: string): Promise<TaskRecord | CorruptTask | undefined> {
    const file = path.join(this.dir, `${id}.json`);
    let text: string;
    try {
      const read = await readTaskFile(file);
      if ('problem' in read) return { id, file, problem: read.problem };
      text = read.text;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      return { id, file, problem: (e as Error).message };
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return { id, file, problem: `not valid JSON (${(e as Error).message})` };
    }
    const problem = taskProblem(value, id);
    return problem ? { id, file, problem } : (value as TaskRecord);
  }

  async #ids(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    return names
      .map((n) => TASK_FILE.exec(n)?.[1])
      .filter((n): n is string => n !== undefined)
      .sort((a, b) => Number(a) - Number(b));
  }

  async #highestId(): Promise<number> {
    let mark = 0;
    try {
      const read = await readTaskFile(path.join(this.dir, HIGH_WATER_FILE));
      mark = 'text' in read ? Number.parseInt(read.text.trim(), 10) || 0 : 0;
    } catch {
      // no mark yet
    }
    const ids = await this.#ids();
    return Math.max(mark, ...ids.map(Number));
  }

  async #writeTask(task: TaskRecord): Promise<void> {
    await this.#writeAtomic(`${task.id}.json`, `${JSON.stringify(task, null, 2)}\n`);
  }

  async #writeAtomic(name: string, text: string): Promise<void> {
    const tmp = path.join(this.dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    await writeFile(tmp, text, { mode: 0o600, flag: 'wx' });
    await rename(tmp, path.join(this.dir, name));
  }

  async #locked<T>(work: () => Promise<T>): Promise<T> {
    await this.#ensureDir();
    const release = await lockfile.lock(this.dir, {
      lockfilePath: path.join(this.dir, LOCK_FILE),
      stale: this.#staleMs,
      // Up to about 10 s of waiting with backoff, enough for dozens of agents updating at once.
      retries: { retries: 60, factor: 1.3, minTimeout: 5, maxTimeout: 250, randomize: true },
      realpath: false,
    });
    try {
      return await work();
    } finally {
      await release();
    }
  }

  async #ensureDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const st = await lstat(this.dir);
    if (!st.isDirectory())
      throw new Error(
        `The task list folder ${this.dir} is not a folder (a symlink or a file is in its place); remove it or choose another tasksDir.`,
      );
  }
}

/**
 * Whether {@linkcode TaskStore.get} found a file it could not read as a task.
 *
 * @param value What `get` returned.
 * @returns True for a {@linkcode CorruptTask}.
 *
 * @example
 * ```ts
 * import { isCorrupt, type TaskStore } from '@toolshed/tool-agent';
 * declare const store: TaskStore;
 *
 * const found = await store.get('3');
 * if (found && isCorrupt(found)) console.warn(found.problem);
 * ```
 */
export function isCorrupt(value: TaskRecord | CorruptTask): value is CorruptTask {
  return 'problem' in value;
}

/**
 * The message for a corrupt task file: which file, what is wrong, and that it was left alone.
 *
 * @param corrupt The corrupt file.
 * @returns One sentence for the model or a person.
 *
 * @example
 * ```ts
 * import { corruptMessage } from '@toolshed/tool-agent';
 *
 * corruptMessage({ id: '3', file: '/t/3.json', problem: 'not valid JSON' });
 * ```
 */
export function corruptMessage(corrupt: CorruptTask): string {
  return `Task #${corrupt.id}'s file ${corrupt.file} is ${corrupt.problem.startsWith('not ') ? corrupt.problem : `unreadable: ${corrupt.problem}`}; it was left as it is. Fix or delete the file to use the task again.`;
}

/**
 * A file of the list as text, or why it is not read: a link (it could lead anywhere, and a
 * task's text is shown to the model), a FIFO or device (reading would hang under the lock), or
 * one past 1 MB (a task is a few lines).
 */
async function readTaskFile(file: string): Promise<{ text: string } | { problem: string }> {
  // The open refuses a link itself: a look before it could be raced by a link put in place meanwhile.
  return readShortText(file, {
    maxBytes: 1024 * 1024,
    tooBig: 'a task file holds one task of a few lines',
    noFollow: true,
  });
}

function normalizeId(id: string): string | undefined {
  const trimmed = String(id).trim().replace(/^#/, '');
  return /^[1-9][0-9]{0,15}$/.test(trimmed) ? trimmed : undefined;
}

function taskProblem(value: unknown, id: string): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const task = value as Record<string, unknown>;
  if (task['id'] !== id) return `not a task: its "id" is ${JSON.stringify(task['id'])}, not "${id}"`;
  for (const key of ['subject', 'description'] as const)
    if (typeof task[key] !== 'string') return `not a task: "${key}" is not a string`;
  if (!['pending', 'in_progress', 'completed'].includes(task['status'] as string))
    return `not a task: "status" is ${JSON.stringify(task['status'])}`;
  for (const key of ['blocks', 'blockedBy'] as const) {
    if (!Array.isArray(task[key]) || !(task[key] as unknown[]).every((v) => typeof v === 'string'))
      return `not a task: "${key}" is not a list of ids`;
  }
  return undefined;
}
