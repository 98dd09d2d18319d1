import { watch } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Session } from '@toolshed/core';
import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';

/**
 * Resources a served session offers to MCP clients (`resources/list`, `resources/templates/list`,
 * `resources/read`, `resources/subscribe`, `completion/complete` of template variables). Each
 * method that does not know a URI returns `undefined`, so several sources can be asked in turn.
 *
 * @example
 * ```ts
 * import { type ServeResourceSource, serveSession, sessionResults } from '@toolshed/mcp-bridge';
 * import type { Session } from '@toolshed/core';
 * declare const session: Session;
 *
 * const notes: ServeResourceSource = {
 *   list: () => [{ uri: 'notes://today', name: 'today', mimeType: 'text/plain' }],
 *   read: (uri) => (uri === 'notes://today' ? [{ uri, mimeType: 'text/plain', text: 'buy milk' }] : undefined),
 * };
 * await serveSession(session, { transport: 'stdio', resources: (s) => [sessionResults(s), notes] });
 * ```
 */
export interface ServeResourceSource {
  /** Direct resources (not templates). */
  list(): Resource[] | Promise<Resource[]>;
  /** Resource templates (RFC 6570 URIs such as `file://{+path}`). */
  templates?(): ResourceTemplate[] | Promise<ResourceTemplate[]>;
  /**
   * A resource's contents, `undefined` when the URI is not this source's.
   * @throws {Error} When it is this source's but may not or cannot be read (the message says why).
   */
  read(uri: string): ReadResourceResult['contents'] | undefined | Promise<ReadResourceResult['contents'] | undefined>;
  /** Values for a template variable that start with `value`; `undefined` for a template not this source's. */
  complete?(uriTemplate: string, argument: string, value: string): string[] | undefined | Promise<string[] | undefined>;
  /**
   * Starts watching a resource: `onUpdate` is called when it changes. Returns how to stop, or
   * `undefined` for a URI not this source's.
   */
  watch?(uri: string, onUpdate: () => void): (() => void) | undefined | Promise<(() => void) | undefined>;
}

const RESULTS_PREFIX = 'toolshed://results/';

/**
 * The session's persisted results (outputs too large to send, saved by the result budget under
 * `<stateDir>/tool-results/`) as `toolshed://results/<file>` resources, text/plain or JSON, as
 * saved: for Read's sake, long lines are folded, one JSON value re-indented and NUL written ␀.
 *
 * @param session The served session.
 * @returns The source.
 *
 * @example
 * ```ts
 * import { serveSession, sessionResults } from '@toolshed/mcp-bridge';
 * import type { Session } from '@toolshed/core';
 * declare const session: Session;
 *
 * await serveSession(session, { transport: 'stdio', resources: (s) => [sessionResults(s)] });
 * ```
 */
export function sessionResults(session: Session): ServeResourceSource {
  const dir = () => path.join(session.stateDir, 'tool-results');
  const mime = (name: string) => (name.endsWith('.json') ? 'application/json' : 'text/plain');
  return {
    async list() {
      const names = await readdir(dir()).catch(() => [] as string[]);
      return names.sort().map((name) => ({
        uri: `${RESULTS_PREFIX}${encodeURIComponent(name)}`,
        name,
        description: `A tool result of this session saved because it was too large to send (${name}), as saved for Read: lines longer than 2,000 characters folded, one JSON value re-indented, NUL as ␀ (the call's preview says which)`,
        mimeType: mime(name),
      }));
    },
    async read(uri) {
      if (!uri.startsWith(RESULTS_PREFIX)) return undefined;
      const name = decodeURIComponent(uri.slice(RESULTS_PREFIX.length));
      if (name === '' || name.includes('/') || name.includes('\\') || name === '.' || name === '..')
        throw new Error(`Resource ${uri} names no saved result: a result is one file name under toolshed://results/`);
      const text = await readFile(path.join(dir(), name), 'utf8').catch(() => {
        throw new Error(
          `Resource ${uri} not found: this session saved no result named "${name}" (resources/list shows those it has)`,
        );
      });
      return [{ uri, mimeType: mime(name), text }];
    },
  };
}

/** Options of {@linkcode workingFiles}. */
export interface WorkingFilesOptions {
  /** The folders whose files are offered. @default [session.cwd] */
  dirs?: readonly string[];
  /** Largest file read, in bytes. @default 10 MiB */
  maxBytes?: number;
}

const TEXT_TYPES: Record<string, string> = {
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.html': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
};
const BINARY_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
};

/**
 * Files under the working directories as `file://` resources, through the template
 * `file://{+path}` (none are listed one by one; `completion/complete` of `path` lists a folder).
 * A read is refused when the file's real path (symlinks resolved) is outside every folder, or
 * unless the session's `Read` tool would be allowed to read it without asking (so its deny and
 * ask rules, `Read(./.env)`, hold; a session without a Read tool serves no files). A folder's
 * listing and a path's completion name only the entries that may be read so.
 *
 * @param session The served session (its cwd and permission rules).
 * @param options Which folders; the largest file read.
 * @returns The source.
 *
 * @example
 * ```ts
 * import { serveSession, sessionResults, workingFiles } from '@toolshed/mcp-bridge';
 * import type { Session } from '@toolshed/core';
 * declare const session: Session;
 *
 * await serveSession(session, { transport: 'stdio', resources: (s) => [sessionResults(s), workingFiles(s)] });
 * ```
 */
export function workingFiles(session: Session, options: WorkingFilesOptions = {}): ServeResourceSource {
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  const roots = async () =>
    Promise.all((options.dirs ?? [session.cwd]).map((d) => realpath(path.resolve(session.cwd, d)).catch(() => d)));
  const inside = (roots: string[], file: string) =>
    roots.some((root) => file === root || file.startsWith(root.endsWith(path.sep) ? root : root + path.sep));

  const readDecision = (file: string) =>
    session.explain('Read', { file_path: file }).catch((e: unknown) => ({
      behavior: 'deny' as const,
      reason: (e as Error).message,
      source: undefined as string | undefined,
      rule: undefined as string | undefined,
    }));
  // A listing names only what the session's Read may read, as Glob and Grep leave out what a
  // deny or ask rule covers: the names in a denied folder (`Read(./private/**)`) are its secrets too.
  const readable = async (folder: string, names: readonly string[]): Promise<boolean[]> =>
    Promise.all(names.map(async (name) => (await readDecision(path.join(folder, name))).behavior === 'allow'));

  /** The real path of a file:// URI that may be read, or a thrown reason. */
  const resolveUri = async (uri: string): Promise<string> => {
    let file: string;
    try {
      file = fileURLToPath(uri);
    } catch (e) {
      throw new Error(`Resource ${uri} is not a local file URI: ${(e as Error).message}`);
    }
    const dirs = await roots();
    let real: string;
    try {
      real = await realpath(file);
    } catch {
      throw new Error(
        `Resource ${uri} not found: no file at ${file} (files under ${dirs.join(', ')} are offered as file://{+path})`,
      );
    }
    if (!inside(dirs, real))
      throw new Error(
        `Resource ${uri} is outside the served working directories (${dirs.join(', ')})${real !== file ? `: it resolves to ${real}` : ''}; only files under them are offered`,
      );
    // The session's own Read tool decides, so its deny and ask rules hold for resources too.
    const decision = await readDecision(real);
    if (decision.behavior === 'allow') return real;
    if (decision.source === 'pool' && !decision.rule)
      throw new Error(
        `Resource ${uri} may not be read: the served session has no Read tool (the fs family), whose permission rules decide which files may be read`,
      );
    throw new Error(
      `Resource ${uri} may not be read: ${decision.rule ? `the ${decision.behavior} rule "${decision.rule}" stops it` : decision.reason}${decision.behavior === 'ask' ? ' (nobody can approve a resource read; add an allow rule to the served session)' : ''}`,
    );
  };

  return {
    list: () => [],
    templates: () => [
      {
        uriTemplate: 'file://{+path}',
        name: 'working-file',
        title: 'A file of the working directories',
        description: `A file under ${(options.dirs ?? [session.cwd]).join(', ')}, by its absolute path`,
      },
    ],
    async read(uri) {
      if (!uri.startsWith('file:')) return undefined;
      const real = await resolveUri(uri);
      const info = await stat(real);
      if (info.isDirectory()) {
        const entries = await readdir(real, { withFileTypes: true });
        const shown = await readable(
          real,
          entries.map((d) => d.name),
        );
        const names = entries
          .filter((_, i) => shown[i])
          .map((d) => (d.isDirectory() ? `${d.name}/` : d.name))
          .sort();
        return [{ uri, mimeType: 'text/plain', text: names.join('\n') }];
      }
      if (info.size > maxBytes)
        throw new Error(
          `Resource ${uri} is ${info.size} bytes, more than the ${maxBytes} served; read a part of it with a tool instead`,
        );
      const data = await readFile(real);
      const ext = path.extname(real).toLowerCase();
      const binary = BINARY_TYPES[ext];
      if (binary) return [{ uri, mimeType: binary, blob: data.toString('base64') }];
      const text = data.toString('utf8');
      // Bytes that are not UTF-8 come back as U+FFFD: send those as a blob.
      if (text.includes('\uFFFD'))
        return [{ uri, mimeType: 'application/octet-stream', blob: data.toString('base64') }];
      return [{ uri, mimeType: TEXT_TYPES[ext] ?? 'text/plain', text }];
    },
    async complete(uriTemplate, argument, value) {
      if (uriTemplate !== 'file://{+path}' || argument !== 'path') return undefined;
      const dirs = await roots();
      if (value === '' || !path.isAbsolute(value)) return dirs.map((d) => (d.endsWith(path.sep) ? d : d + path.sep));
      const folder = value.endsWith(path.sep) ? value : path.dirname(value);
      const prefix = value.endsWith(path.sep) ? '' : path.basename(value);
      const real = await realpath(folder).catch(() => undefined);
      if (real === undefined || !inside(dirs, real)) return [];
      if ((await readDecision(real)).behavior !== 'allow') return [];
      const entries = (await readdir(real, { withFileTypes: true }).catch(() => [])).filter((d) =>
        d.name.startsWith(prefix),
      );
      const shown = await readable(
        real,
        entries.map((d) => d.name),
      );
      return entries
        .filter((_, i) => shown[i])
        .map((d) => path.join(folder, d.name) + (d.isDirectory() ? path.sep : ''))
        .sort();
    },
    async watch(uri, onUpdate) {
      if (!uri.startsWith('file:')) return undefined;
      const real = await resolveUri(uri);
      const watcher = watch(real, { persistent: false }, () => onUpdate());
      watcher.on('error', () => {});
      return () => watcher.close();
    },
  };
}

/**
 * The `file://` URI of a path, as {@linkcode workingFiles} names it.
 *
 * @param file An absolute path.
 * @returns `file:///…`.
 *
 * @example
 * ```ts
 * import { fileResourceUri } from '@toolshed/mcp-bridge';
 *
 * fileResourceUri('/repo/README.md'); // 'file:///repo/README.md'
 * ```
 */
export function fileResourceUri(file: string): string {
  return pathToFileURL(file).href;
}
