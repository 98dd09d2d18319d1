import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { isProjectTrusted } from '@toolshed/core';
import { loginMcpServer } from '@toolshed/mcp-bridge';
import type { CommandInvocation } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { readMcpConfigFile } from './mcp_config_file.ts';
import { UsageError } from './usage_error.ts';
import { printableMessage } from './_printable.ts';

/**
 * `toolshed mcp login <server>`: signs in to a remote MCP server of `--mcp-config` (default
 * `.mcp.json` in the working directory, once the folder is trusted: its addresses and headers,
 * which may expand your environment variables, are the repository's) with OAuth. The sign-in URL is printed on stderr; the
 * browser comes back to a loopback redirect on 127.0.0.1, and the tokens go to
 * `~/.toolshed/mcp-oauth.json` (mode 0600), where sessions find them.
 *
 * @param servers The positionals after `login`: exactly one server name.
 * @param options The common flags (`args`: `--cwd`, `--mcp-config`, `--json`) and the CLI's
 *   streams (`io`).
 * @returns 0 when signed in, 1 when the sign-in failed.
 * @throws {UsageError} For a missing server name, a missing or bad configuration file, or a server that is not remote.
 *
 * @example
 * ```ts
 * import type { CliIo, CommonArgs } from '@toolshed/cli';
 * import { mcpLoginCommand } from './mcp_login_command.ts';
 * declare const args: CommonArgs;
 * declare const io: CliIo;
 *
 * await mcpLoginCommand(['github'], { args, io }); // prints "Open this URL to sign in to github: …"
 * ```
 */
export async function mcpLoginCommand(
  servers: readonly string[],
  { args, io }: { args: CommandInvocation['args']; io: CliIo },
): Promise<number> {
  if (servers.length !== 1)
    throw new UsageError(
      `"toolshed mcp login" takes one server name, got ${servers.length === 0 ? 'none' : servers.map((s) => `"${s}"`).join(' ')}. Example: toolshed mcp login github`,
      { command: 'mcp' },
    );
  const name = servers[0]!;
  let file = args.mcpConfig;
  if (file === undefined) {
    file = path.join(args.cwd, '.mcp.json');
    if (!existsSync(file))
      throw new UsageError(`No MCP servers to sign in to: give --mcp-config FILE, or put a .mcp.json in ${args.cwd}.`, {
        showUsage: false,
      });
    // The repository chose the address and the headers, which may hold your variables (${GITHUB_TOKEN}):
    // nothing is sent there from a folder you have not trusted.
    if (!(await isProjectTrusted(args.cwd, { homeDir: io.env?.['HOME'] || homedir() }))) {
      throw new UsageError(
        `The .mcp.json in ${args.cwd} belongs to a project folder that is not trusted, so its servers (addresses and headers the repository chose, which may send your environment variables) were not contacted. Run "toolshed trust ${args.cwd}" to use it by default, or name it once with --mcp-config ${file}.`,
        { showUsage: false },
      );
    }
  }
  const config = await readMcpConfigFile(file, process.cwd(), { inProject: args.mcpConfig === undefined });
  try {
    const result = await loginMcpServer(name, config, {
      cwd: args.cwd,
      ...(io.env?.HOME ? { homeDir: io.env.HOME } : {}),
      ...(io.env ? { env: io.env } : {}),
      onAuthorizationUrl: (url) =>
        io.stderr.write(
          `Open this URL in your browser to sign in to ${name}:\n\n  ${url.href}\n\nWaiting for the browser to come back…\n`,
        ),
    });
    const text = result.signedIn
      ? `Signed in to ${name} (${result.tools} tools); the tokens are kept in ~/.toolshed/mcp-oauth.json.`
      : `${name} let us in without a sign-in (${result.tools} tools); nothing was stored.`;
    io.stdout.write(args.json ? `${JSON.stringify(result)}\n` : `${text}\n`);
    return 0;
  } catch (e) {
    if (e instanceof TypeError) throw new UsageError(`${e.message} (in ${file})`, { showUsage: false });
    // The message may carry the authorization server's error_description: escaped for the terminal.
    io.stderr.write(`toolshed: ${printableMessage((e as Error).message)}\n`);
    return 1;
  }
}
