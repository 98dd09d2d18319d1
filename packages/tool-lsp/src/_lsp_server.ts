import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { ToolshedError } from '@toolshed/core';
import {
  CancellationTokenSource,
  createMessageConnection,
  type InitializeParams,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { LSP_SERVER_FAILED, LSP_SERVER_MISSING, LSP_SERVER_TIMEOUT } from './lsp_errors.ts';
import { languageIdOf, type LspServerConfig } from './server_config.ts';

/** What a running server was started with. */
export interface LspServerStart {
  /** The language name (`typescript`), for messages. */
  language: string;
  config: LspServerConfig;
  /** Absolute working directories: the workspace folders; the first is the root. */
  roots: readonly string[];
  /** Milliseconds for each request. */
  timeoutMs: number;
  /** Milliseconds for the process to start and answer `initialize`. */
  startTimeoutMs: number;
  /** The environment the server starts with (before `config.env`). */
  env: NodeJS.ProcessEnv;
}

interface OpenDocument {
  version: number;
  text: string;
  mtimeMs: number;
  size: number;
}

const STDERR_TAIL = 600;

/**
 * The largest file sent to a language server: a file is opened with its whole text (and kept for
 * the edits that follow), so a generated bundle of hundreds of megabytes is left to the server's
 * own reading when it is a location's target, and refused when it is the file asked about.
 *
 * @example
 * ```ts
 * import { MAX_OPEN_FILE_BYTES } from './_lsp_server.ts';
 *
 * MAX_OPEN_FILE_BYTES / 2 ** 20; // 32 (MiB)
 * ```
 */
export const MAX_OPEN_FILE_BYTES = 32 * 1024 * 1024;

/**
 * One language server process, spoken to over stdio with vscode-languageserver-protocol. It
 * keeps the documents it opened in step with the disk (`didOpen` / `didChange` before each
 * request), and fails every request with one clear error once the process is gone; the owner
 * starts a new one on the next call.
 */
export class LspServer {
  readonly #start: LspServerStart;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #connection: MessageConnection;
  readonly #docs = new Map<string, OpenDocument>();
  readonly #opening = new Map<string, Promise<void>>();
  #stderr = '';
  #exit: Promise<never>;
  #dead: ToolshedError | undefined;
  #stopping = false;
  #capabilities: Record<string, unknown> = {};

  private constructor(start: LspServerStart, child: ChildProcessWithoutNullStreams) {
    this.#start = start;
    this.#child = child;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL);
    });
    this.#exit = new Promise<never>((_, reject) => {
      child.once('exit', (code, signal) => {
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        const tail = this.#stderr.trim().replace(/\s+/g, ' ');
        this.#dead ??= new ToolshedError(
          LSP_SERVER_FAILED,
          `The ${start.language} language server ("${this.commandLine}") ${how}${tail ? ` (stderr: ${tail.slice(-300)})` : ''}; it will be started again on the next call.`,
        );
        reject(this.#dead);
      });
    });
    this.#exit.catch(() => {});
    child.stdin.on('error', () => {}); // a write to a dead server: the exit handler reports it
    this.#connection = createMessageConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    // Requests a server makes of its client: answer each so that none waits on us.
    this.#connection.onRequest((method, params) => {
      if (method === 'workspace/configuration') {
        const items = (params as { items?: unknown[] } | undefined)?.items ?? [];
        return items.map(() => null);
      }
      if (method === 'workspace/workspaceFolders') return this.#folders();
      // The LSP tool is read-only: a server's edits (a code action's) are never applied.
      if (method === 'workspace/applyEdit')
        return { applied: false, failureReason: 'This client is read-only and applies no edits.' };
      return null;
    });
    this.#connection.onNotification(() => {});
    this.#connection.onError(() => {});
    this.#connection.listen();
  }

  /**
   * Starts the server and runs the `initialize` handshake with the roots as workspace folders.
   *
   * @param start What to start and where.
   * @returns The initialised server.
   * @throws {ToolshedError} `lsp_server_missing` when the program is not found (naming what to
   *   install), `lsp_server_failed` when it exits, `lsp_server_timeout` when it does not answer.
   */
  static async start(start: LspServerStart): Promise<LspServer> {
    const { config } = start;
    const child = spawn(config.command, [...(config.args ?? [])], {
      cwd: start.roots[0],
      env: { ...start.env, ...config.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so that a hung server is killed with the processes it started
      // (typescript-language-server runs tsserver as a child). It still exits with us: the
      // `initialize` request names our pid, and servers end when their stdin closes.
      detached: process.platform !== 'win32',
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'ENOENT' || e.code === 'EACCES') {
          const fix = config.install ? `install it (${config.install})` : 'install it';
          reject(
            new ToolshedError(
              LSP_SERVER_MISSING,
              `No ${start.language} language server: "${config.command}" ${e.code === 'ENOENT' ? 'was not found on PATH' : 'is not executable'}. To use LSP on these files, ${fix}, or set lspTools({ servers: { ${start.language}: { command } } }) to where it is.`,
            ),
          );
        } else {
          reject(
            new ToolshedError(
              LSP_SERVER_FAILED,
              `The ${start.language} language server ("${config.command}") could not be started: ${e.message}.`,
            ),
          );
        }
      });
    });
    const server = new LspServer(start, child);
    try {
      const result = await server.request<{ capabilities?: Record<string, unknown> } | null>(
        'initialize',
        server.#initializeParams(),
        undefined,
        start.startTimeoutMs,
      );
      server.#capabilities = result?.capabilities ?? {};
      await server.#connection.sendNotification('initialized', {});
    } catch (e) {
      server.kill();
      throw e;
    }
    return server;
  }

  /** The command as a person would type it. */
  get commandLine(): string {
    return [this.#start.config.command, ...(this.#start.config.args ?? [])].join(' ');
  }

  /** The process id, while it runs. */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Whether the server announced a capability (`definitionProvider`) in its `initialize` answer. */
  supports(capability: string): boolean {
    const value = this.#capabilities[capability];
    return value !== undefined && value !== null && value !== false;
  }

  /** False once the process exited, was killed, or stopped answering. */
  get alive(): boolean {
    return this.#dead === undefined;
  }

  /**
   * Sends one request and waits for its answer, the process's exit, the timeout or the signal,
   * whichever comes first. A timeout kills the process: a server that hung once is not trusted
   * with the next call.
   */
  async request<R>(
    method: string,
    params: unknown,
    signal: AbortSignal | undefined,
    timeoutMs = this.#start.timeoutMs,
  ): Promise<R> {
    if (this.#dead) throw this.#dead;
    const cancel = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new ToolshedError(
          LSP_SERVER_TIMEOUT,
          `The ${this.#start.language} language server ("${this.commandLine}") did not answer ${method} within ${timeoutMs} ms; it was stopped and will be started again on the next call.`,
        );
        this.#dead ??= error;
        this.kill();
        reject(error);
      }, timeoutMs);
    });
    const aborted = new Promise<never>((_, reject) => {
      if (!signal) return;
      onAbort = () => {
        cancel.cancel();
        reject(new ToolshedError('aborted', `The ${method} request was cancelled.`));
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const answer = this.#connection.sendRequest(method, params, cancel.token) as Promise<R>;
      answer.catch(() => {});
      return await Promise.race([answer, timeout, aborted, this.#exit]);
    } catch (e) {
      if (ToolshedError.isInstance(e)) throw e;
      if (this.#dead) throw this.#dead;
      throw new ToolshedError(
        LSP_SERVER_FAILED,
        `The ${this.#start.language} language server answered ${method} with an error: ${(e as Error).message}`,
      );
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  }

  /**
   * Brings the server's view of open documents in step with the disk: opens `file` if it is not
   * open, and sends the new text of every open document that changed since (an Edit or Write,
   * or any other program), closing those that were deleted.
   */
  async sync(file: string): Promise<void> {
    if (this.#dead) throw this.#dead;
    for (const [open, doc] of this.#docs) {
      if (open !== file) await this.#refresh(open, doc);
    }
    const doc = this.#docs.get(file);
    if (doc) await this.#refresh(file, doc);
    if (!this.#docs.has(file)) await this.open(file);
  }

  /**
   * Opens a file the server has not opened yet (a definition's target), so later edits to it
   * reach the server as `didChange` instead of depending on the server's own file watching.
   */
  async open(file: string): Promise<void> {
    if (this.#dead) throw this.#dead;
    if (this.#docs.has(file)) return;
    // Two calls of one batch may open the same file: the second waits for the first's didOpen.
    let opening = this.#opening.get(file);
    if (!opening) {
      opening = (async () => {
        const info = await stat(file);
        if (info.size > MAX_OPEN_FILE_BYTES)
          throw new Error(
            `${file} is ${(info.size / 2 ** 20).toFixed(1)} MB; the LSP tool sends a file's whole text to the language server and takes files up to ${MAX_OPEN_FILE_BYTES / 2 ** 20} MB. Use Grep to find what you need in it, or Read with offset and limit.`,
          );
        const text = await readFile(file, 'utf8');
        this.#docs.set(file, { version: 1, text, mtimeMs: info.mtimeMs, size: info.size });
        await this.#connection.sendNotification('textDocument/didOpen', {
          textDocument: { uri: fileUri(file), languageId: languageIdOf(file, this.#start.config), version: 1, text },
        });
      })().finally(() => this.#opening.delete(file));
      this.#opening.set(file, opening);
    }
    await opening;
  }

  async #refresh(file: string, doc: OpenDocument): Promise<void> {
    let info;
    try {
      info = await stat(file);
    } catch {
      info = undefined;
    }
    // Gone, or grown past what is sent: closed (the server reads it itself if it needs it).
    if (!info || info.size > MAX_OPEN_FILE_BYTES) {
      this.#docs.delete(file);
      await this.#connection.sendNotification('textDocument/didClose', { textDocument: { uri: fileUri(file) } });
      return;
    }
    if (info.mtimeMs === doc.mtimeMs && info.size === doc.size) return;
    const text = await readFile(file, 'utf8');
    doc.mtimeMs = info.mtimeMs;
    doc.size = info.size;
    if (text === doc.text) return;
    doc.text = text;
    doc.version++;
    await this.#connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: fileUri(file), version: doc.version },
      contentChanges: [{ text }],
    });
  }

  /** The text of an open document as the server last got it, if it is open. */
  openText(file: string): string | undefined {
    return this.#docs.get(file)?.text;
  }

  /** Asks the server to shut down and exit; kills it if it does not within a second or two. */
  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    if (this.#dead) {
      this.kill();
      return;
    }
    const exited = this.#exit.catch(() => {});
    try {
      await Promise.race([
        (async () => {
          await this.#connection.sendRequest('shutdown');
          await this.#connection.sendNotification('exit');
          await exited;
        })(),
        new Promise((resolve) => setTimeout(resolve, 2000).unref()),
      ]);
    } catch {
      // a server that fails its shutdown is killed below
    }
    this.#dead ??= new ToolshedError(
      LSP_SERVER_FAILED,
      `The ${this.#start.language} language server was shut down with the session.`,
    );
    this.kill();
  }

  /** Ends the process and its process group now. */
  kill(): void {
    this.#connection.dispose();
    const pid = this.#child.pid;
    if (pid !== undefined && process.platform !== 'win32') {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    }
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
  }

  #folders() {
    return this.#start.roots.map((root) => ({ uri: fileUri(root), name: root.split('/').pop() || root }));
  }

  #initializeParams(): InitializeParams {
    const root = this.#start.roots[0]!;
    return {
      processId: process.pid,
      clientInfo: { name: 'toolshed-lsp' },
      rootUri: fileUri(root),
      rootPath: root,
      workspaceFolders: this.#folders(),
      initializationOptions: this.#start.config.initializationOptions,
      capabilities: {
        workspace: { workspaceFolders: true, configuration: true, symbol: {} },
        textDocument: {
          synchronization: { dynamicRegistration: false, didSave: false, willSave: false },
          definition: { linkSupport: true },
          implementation: { linkSupport: true },
          references: {},
          hover: { contentFormat: ['markdown', 'plaintext'] },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          callHierarchy: {},
        },
        window: { workDoneProgress: false },
      },
    };
  }
}

/**
 * The `file:` URI of an absolute path.
 */
export function fileUri(file: string): string {
  return pathToFileURL(file).href;
}
