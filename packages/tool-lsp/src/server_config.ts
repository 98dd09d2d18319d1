import path from 'node:path';

/** How to start one language server, and which files it serves. */
export interface LspServerConfig {
  /** The program: a name looked up on `PATH`, or a path. */
  command: string;
  /** Its arguments (most servers need `--stdio`). @default [] */
  args?: readonly string[];
  /** The file extensions it serves, with the dot: `['.ts', '.tsx']`. */
  extensions: readonly string[];
  /** The LSP language id per extension, where it is not the extension's usual one. */
  languageIds?: Readonly<Record<string, string>>;
  /** Sent as `initializationOptions` in the `initialize` request. */
  initializationOptions?: unknown;
  /** Extra environment variables for the server process. */
  env?: Readonly<Record<string, string>>;
  /** What to tell a person whose machine lacks the server: the install command. */
  install?: string;
}

/**
 * The servers used when `lspTools()` is given none: TypeScript and JavaScript through
 * `typescript-language-server` (which needs `typescript` in the project or beside it), Python
 * through pyright's `pyright-langserver` (both run with their project loaded before they answer). Both are npm packages; neither is started before a call
 * needs it.
 *
 * @example
 * ```ts
 * import { DEFAULT_LSP_SERVERS, lspTools } from '@toolshed/tool-lsp';
 *
 * const family = lspTools({ servers: { ...DEFAULT_LSP_SERVERS, rust: { command: 'rust-analyzer', extensions: ['.rs'] } } });
 * ```
 */
export const DEFAULT_LSP_SERVERS: Readonly<Record<string, LspServerConfig>> = {
  typescript: {
    command: 'typescript-language-server',
    args: ['--stdio'],
    extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
    // One tsserver that has loaded the project answers everything: the separate syntax server
    // it would otherwise start answers definitions before the project is loaded, with the
    // import line instead of the declaration.
    initializationOptions: { tsserver: { useSyntaxServer: 'never' } },
    install: 'npm install -g typescript-language-server typescript',
  },
  python: {
    command: 'pyright-langserver',
    args: ['--stdio'],
    extensions: ['.py', '.pyi'],
    install: 'npm install -g pyright',
  },
};

const LANGUAGE_IDS: Readonly<Record<string, string>> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
  '.py': 'python',
  '.pyi': 'python',
  '.rs': 'rust',
  '.go': 'go',
  '.java': 'java',
  '.c': 'c',
  '.h': 'c',
  '.cpp': 'cpp',
  '.hpp': 'cpp',
  '.cs': 'csharp',
  '.rb': 'ruby',
  '.php': 'php',
  '.lua': 'lua',
  '.json': 'json',
};

/**
 * Checks a `servers` map and returns it with extensions lower-cased, so a mistake is reported
 * when the family is made rather than at the first call.
 *
 * @param servers Language name to server.
 * @returns The same servers, normalised.
 * @throws {TypeError} For a server without a command or extensions, an extension without its
 *   dot, or an extension two servers claim.
 *
 * @example
 * ```ts
 * import { checkServerConfigs } from '@toolshed/tool-lsp';
 *
 * checkServerConfigs({ go: { command: 'gopls', extensions: ['.go'] } });
 * checkServerConfigs({ go: { command: 'gopls', extensions: ['go'] } }); // throws: write ".go"
 * ```
 */
export function checkServerConfigs(
  servers: Readonly<Record<string, LspServerConfig>>,
): Record<string, LspServerConfig> {
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    throw new TypeError(
      `lspTools: servers must be an object of language name to server, got ${JSON.stringify(servers)}`,
    );
  }
  const out: Record<string, LspServerConfig> = {};
  const owner = new Map<string, string>();
  for (const [name, config] of Object.entries(servers)) {
    const where = `lspTools: servers.${name}`;
    if (!config || typeof config !== 'object')
      throw new TypeError(`${where} must be { command, args?, extensions }, got ${JSON.stringify(config)}`);
    if (typeof config.command !== 'string' || config.command.trim() === '') {
      throw new TypeError(
        `${where}.command must be the server's program, such as "typescript-language-server", got ${JSON.stringify(config.command)}`,
      );
    }
    if (config.args !== undefined && (!Array.isArray(config.args) || config.args.some((a) => typeof a !== 'string'))) {
      throw new TypeError(`${where}.args must be a list of strings, got ${JSON.stringify(config.args)}`);
    }
    if (!Array.isArray(config.extensions) || config.extensions.length === 0) {
      throw new TypeError(
        `${where}.extensions must list the file extensions it serves, such as [".ts"], got ${JSON.stringify(config.extensions)}`,
      );
    }
    const extensions = config.extensions.map((ext) => {
      if (typeof ext !== 'string' || !/^\.[^./\\]+$/.test(ext)) {
        throw new TypeError(
          `${where}.extensions has ${JSON.stringify(ext)}: write an extension with its dot, such as ".ts"`,
        );
      }
      const lower = ext.toLowerCase();
      const other = owner.get(lower);
      if (other !== undefined)
        throw new TypeError(
          `${where}.extensions has "${lower}", which servers.${other} already serves: give each extension to one server`,
        );
      owner.set(lower, name);
      return lower;
    });
    out[name] = { ...config, extensions };
  }
  return out;
}

/**
 * The server that serves a file, by its extension.
 *
 * @param servers The checked servers.
 * @param file A file path.
 * @returns The language name and its server, or undefined.
 *
 * @example
 * ```ts
 * import { DEFAULT_LSP_SERVERS, serverForFile } from '@toolshed/tool-lsp';
 *
 * serverForFile(DEFAULT_LSP_SERVERS, 'src/a.tsx')?.language; // 'typescript'
 * ```
 */
export function serverForFile(
  servers: Readonly<Record<string, LspServerConfig>>,
  file: string,
): { language: string; config: LspServerConfig } | undefined {
  const ext = path.extname(file).toLowerCase();
  if (ext === '') return undefined;
  for (const [language, config] of Object.entries(servers)) {
    if (config.extensions.includes(ext)) return { language, config };
  }
  return undefined;
}

/**
 * The LSP language id of a file (`typescriptreact` for `.tsx`): the server's own mapping first,
 * then the usual ids, then the extension without its dot.
 *
 * @param file A file path.
 * @param config The server that serves it.
 * @returns The id sent in `didOpen`.
 *
 * @example
 * ```ts
 * import { DEFAULT_LSP_SERVERS, languageIdOf } from '@toolshed/tool-lsp';
 *
 * languageIdOf('a.py', DEFAULT_LSP_SERVERS.python!); // 'python'
 * ```
 */
export function languageIdOf(file: string, config: LspServerConfig): string {
  const ext = path.extname(file).toLowerCase();
  return config.languageIds?.[ext] ?? LANGUAGE_IDS[ext] ?? ext.slice(1);
}
