import { LspServer } from './_lsp_server.ts';
import type { LspServerConfig } from './server_config.ts';

/** What a pool starts its servers with. */
export interface ServerPoolOptions {
  roots: readonly string[];
  timeoutMs: number;
  startTimeoutMs: number;
  env: NodeJS.ProcessEnv;
}

/**
 * The language servers of one session: at most one per language, started on the first call
 * that needs it, started again after it died, and all stopped by {@linkcode ServerPool.close}.
 */
export class ServerPool {
  readonly #options: ServerPoolOptions;
  readonly #servers = new Map<string, Promise<LspServer>>();
  #closed = false;

  constructor(options: ServerPoolOptions) {
    this.#options = options;
  }

  /** The folders the servers serve (the session's working directories). */
  get roots(): readonly string[] {
    return this.#options.roots;
  }

  /** The servers' environment. */
  get env(): NodeJS.ProcessEnv {
    return this.#options.env;
  }

  /** The running server of a language, or a new one when there is none or it died. */
  async get(language: string, config: LspServerConfig): Promise<LspServer> {
    if (this.#closed) throw new Error('The session was closed: its language servers are stopped.');
    const running = this.#servers.get(language);
    if (running) {
      const server = await running.catch(() => undefined);
      if (server?.alive) return server;
      if (this.#servers.get(language) !== running) return this.get(language, config);
      this.#servers.delete(language);
      server?.kill();
    }
    const starting = LspServer.start({ language, config, ...this.#options });
    this.#servers.set(language, starting);
    // A server that could not start is forgotten: the next call tries again (it may be installed now).
    starting.catch(() => {
      if (this.#servers.get(language) === starting) this.#servers.delete(language);
    });
    return starting;
  }

  /** Stops every server. */
  async close(): Promise<void> {
    this.#closed = true;
    const servers = [...this.#servers.values()];
    this.#servers.clear();
    await Promise.all(servers.map(async (p) => (await p.catch(() => undefined))?.stop()));
  }
}
