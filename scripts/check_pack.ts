// DESIGN.md rule 3, checked: `pnpm pack` of each package gives a tarball that installs with npm in an
// empty project and works there: every family passes the conformance check from the installed
// `@toolshed/core/testing`, a session assembles their pool, and no family's published manifest
// depends on another Toolshed package (core is a peer), so installing core and one family pulls in
// no other family; each declares TypeScript 5.5 as an optional peer. The CLI (`@toolshed/cli`)
// installs the same way: `npx toolshed --version` runs, and an MCP client drives `toolshed mcp
// serve` from the installed package over stdio.
// Needs the npm registry; run after `pnpm build` (CI does: `pnpm check:pack`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makePdf } from '../packages/tool-fs/src/read/testdata/make_pdf.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FACTORIES: Record<string, string> = {
  'tool-fs': 'fileTools',
  'tool-shell': 'shellTools',
  'tool-web': 'webTools',
  'tool-agent': 'agentTools',
  'tool-lsp': 'lspTools',
  toolsearch: 'toolSearch',
  'mcp-bridge': 'mcpServers',
};
const work = mkdtempSync(path.join(tmpdir(), 'toolshed-pack-'));
try {
  const tarballs = new Map<string, string>();
  const folders = [...readdirSync(path.join(root, 'packages')).map((d) => path.join('packages', d)), 'apps/cli'];
  for (const folder of folders) {
    const dir = path.basename(folder);
    const out = execFileSync('pnpm', ['pack', '--pack-destination', work], {
      cwd: path.join(root, folder),
      encoding: 'utf8',
    });
    const file = out
      .trim()
      .split('\n')
      .reverse()
      .find((l) => l.endsWith('.tgz'))!;
    tarballs.set(dir, path.isAbsolute(file) ? file : path.join(work, path.basename(file)));
  }
  const app = path.join(work, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'pack-check', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs.values()], {
    cwd: app,
    stdio: 'inherit',
  });
  const installed = readdirSync(path.join(app, 'node_modules', '@toolshed')).sort();
  const lines = Object.entries(FACTORIES).map(([dir, factory]) => `import { ${factory} } from '@toolshed/${dir}';`);
  writeFileSync(
    path.join(app, 'check.mjs'),
    `${lines.join('\n')}
import { createSession } from '@toolshed/core';
import { checkFamily } from '@toolshed/core/testing';
const families = [${Object.values(FACTORIES)
      .map((f) => `${f}()`)
      .join(', ')}];
for (const family of families) {
  const problems = await checkFamily(family);
  if (problems.length) throw new Error(family.name + ': ' + JSON.stringify(problems));
}
const session = await createSession({ cwd: process.cwd(), families });
console.log(session.catalog().map((e) => e.name).join(' '));
// A deferred family's tool is found by ToolSearch from the installed packages.
const [found] = await session.run([{ type: 'tool_use', id: 's1', name: 'ToolSearch', input: { query: 'find references to a symbol', max_results: 3 } }]);
if (found.is_error || !JSON.stringify(found.content).includes('LSP')) throw new Error('ToolSearch did not find LSP: ' + JSON.stringify(found.content));
await session.close();
`,
  );
  const names = execFileSync('node', ['check.mjs'], { cwd: app, encoding: 'utf8' }).trim();
  for (const pkg of Object.keys(FACTORIES)) {
    const manifest = JSON.parse(
      readFileSync(path.join(app, 'node_modules', '@toolshed', pkg, 'package.json'), 'utf8'),
    ) as { dependencies?: Record<string, string> };
    const families = Object.keys(manifest.dependencies ?? {}).filter((d) => d.startsWith('@toolshed/'));
    if (families.length)
      throw new Error(
        `@toolshed/${pkg} depends on ${families.join(', ')}: a family depends on @toolshed/core only, as a peer`,
      );
  }
  // The types need TypeScript 5.5 or newer: each published manifest says so as an optional peer,
  // so that a JavaScript project is not asked to install TypeScript.
  for (const pkg of installed) {
    const manifest = JSON.parse(
      readFileSync(path.join(app, 'node_modules', '@toolshed', pkg, 'package.json'), 'utf8'),
    ) as {
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    if (
      manifest.peerDependencies?.['typescript'] !== '>=5.5' ||
      !manifest.peerDependenciesMeta?.['typescript']?.optional
    )
      throw new Error(`@toolshed/${pkg} must declare typescript ">=5.5" as an optional peer dependency`);
  }
  if (readdirSync(path.join(app, 'node_modules')).includes('typescript'))
    throw new Error('installing the tarballs pulled in typescript, which is an optional peer');
  // The LSP family works from its tarball against a real server installed beside it, as an
  // integrator's project would have it (typescript-language-server finds the project's typescript,
  // which it runs only in a folder the caller trusts: the integrator's own, trustedProject: true).
  execFileSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      'typescript-language-server@^5.3.0',
      'typescript@^5.9.3',
    ],
    { cwd: app, stdio: 'inherit' },
  );
  writeFileSync(path.join(app, 'lib.ts'), 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n');
  writeFileSync(path.join(app, 'use.ts'), "import { greet } from './lib';\nexport const text = greet('you');\n");
  writeFileSync(
    path.join(app, 'lsp.mjs'),
    `import { createSession, contentToText } from '@toolshed/core';
import { lspTools } from '@toolshed/tool-lsp';
const command = ${JSON.stringify(path.join(app, 'node_modules', '.bin', 'typescript-language-server'))};
const session = await createSession({ cwd: process.cwd(), trustedProject: true, families: [lspTools({ servers: { typescript: { command, args: ['--stdio'], extensions: ['.ts'] } } })] });
const [result] = await session.run([{ type: 'tool_use', id: 'l1', name: 'LSP', input: { operation: 'goToDefinition', filePath: 'use.ts', line: 2, character: 21 } }]);
await session.close();
console.log(contentToText(result.content));
`,
  );
  const definition = execFileSync('node', ['lsp.mjs'], { cwd: app, encoding: 'utf8' }).trim();
  if (!definition.includes('lib.ts:1:17: export function greet(name: string): string {')) {
    throw new Error(`@toolshed/tool-lsp from its tarball did not find the definition: ${definition}`);
  }
  const cli = checkInstalledCli(app);
  checkEsmOnly(app);
  console.log(
    `Pack check: ${installed.length} packages installed from their tarballs with npm; tools: ${names}; LSP: ${definition.split('\n').pop()}; CLI: ${cli}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * The CLI from its tarball: `npx toolshed --version` names the CLI and the families as installed,
 * and `toolshed mcp serve` answers an MCP client over stdio with the fs tools, one of which runs.
 */
function checkInstalledCli(app: string): string {
  const version = execFileSync('npx', ['--no-install', 'toolshed', '--version'], { cwd: app, encoding: 'utf8' }).trim();
  if (!version.startsWith('toolshed ') || !version.includes('(@toolshed/cli)') || version.includes('not installed'))
    throw new Error(`npx toolshed --version from the tarball printed: ${version}`);
  writeFileSync(path.join(app, 'hello.txt'), 'hello from the tarball\n');
  writeFileSync(
    path.join(app, 'serve.mjs'),
    `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const transport = new StdioClientTransport({ command: 'npx', args: ['--no-install', 'toolshed', 'mcp', 'serve', '--only', 'fs', '--cwd', process.cwd()], stderr: 'pipe' });
const client = new Client({ name: 'pack-check', version: '1.0.0' });
await client.connect(transport);
const { tools } = await client.listTools();
const result = await client.callTool({ name: 'Read', arguments: { file_path: 'hello.txt' } });
await client.close();
const text = result.content.map((c) => c.text ?? '').join('');
if (result.isError || !text.includes('hello from the tarball')) throw new Error('Read through mcp serve: ' + JSON.stringify(result));
console.log(tools.length + ' tools over MCP, Read ok');
`,
  );
  const served = execFileSync('node', ['serve.mjs'], { cwd: app, encoding: 'utf8' }).trim();
  return `${version.split('\n')[0]}; ${served}; ${checkBundledFileLoads(app)}`;
}

/**
 * The CLI is a bundle (scripts/bundle_cli.ts): what loads files beside its code at run time must
 * still find them in an npm install. Bash's read-only check parses the command with tree-sitter
 * (its wasm found from tool-shell's folder), and Read of a PDF loads pdf.js (a dependency the
 * bundle imports from node_modules).
 */
function checkBundledFileLoads(app: string): string {
  const run = (args: string[]) =>
    execFileSync('npx', ['--no-install', 'toolshed', 'call', ...args, '--cwd', app], { cwd: app, encoding: 'utf8' });
  // Allowed only as a read-only command, which needs the parser: an unparsed command would ask and be refused.
  const echo = run(['Bash', `{"command":"printf '%s-%s\\n' par sed | cat"}`, '--only', 'shell']);
  if (!/^par-sed$/m.test(echo)) throw new Error(`toolshed call Bash from the tarball printed: ${echo}`);
  writeFileSync(path.join(app, 'doc.pdf'), makePdf(['text of a pdf page']));
  const pdf = run(['Read', '{"file_path":"doc.pdf"}', '--only', 'fs']);
  if (!pdf.includes('text of a pdf page'))
    throw new Error(`toolshed call Read of a PDF from the tarball printed: ${pdf}`);
  return 'Bash parsed, PDF read';
}

/** What each package README says: the packages are ESM only, and `require()` fails with ERR_PACKAGE_PATH_NOT_EXPORTED. */
function checkEsmOnly(app: string): void {
  for (const pkg of ['core', ...Object.keys(FACTORIES)]) {
    const script = `try { require('@toolshed/${pkg}'); console.log('loaded'); } catch (e) { console.log(e.code); }`;
    const code = execFileSync('node', ['-e', script], { cwd: app, encoding: 'utf8' }).trim();
    if (code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED')
      throw new Error(
        `require('@toolshed/${pkg}') gave ${code}, not the ERR_PACKAGE_PATH_NOT_EXPORTED its README names`,
      );
  }
}
