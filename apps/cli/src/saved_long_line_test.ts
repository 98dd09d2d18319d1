// An output of one very long line (minified JSON from an MCP tool, a bundle, `curl` output) is
// saved so that the tools the preview names reach every character of it: Read cuts a line at
// 2 000 characters, so the saved file has long lines folded (or JSON re-indented), and the
// preview says which. Real files, the real Read, Grep and Bash, through a Session.
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool, contentToText, createSession, type Session } from '@toolshed/core';
import { fileTools } from '@toolshed/tool-fs';
import { shellTools } from '@toolshed/tool-shell';

let root: string;
let cwd: string;
let home: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-long-line-')));
  cwd = path.join(root, 'project');
  home = path.join(root, 'home');
  await mkdir(cwd);
  await mkdir(home);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const NEEDLE = 'NEEDLE_7f3a9c';

/** An MCP-style tool that returns whatever text it is given to return. */
function dumpTool(text: () => string) {
  return buildTool({
    name: 'mcp__api__dump',
    description: 'returns a large API response',
    inputSchema: z.strictObject({}),
    isReadOnly: () => true,
    async call() {
      return { data: text() };
    },
  });
}

/** A 5 MB line of code-like text with astral characters, and the needle past character 2 000 000. */
function bundleLine(): string {
  const unit = 'function f(a){return a+"😀"};'; // 30 UTF-16 units, a surrogate pair inside
  const before = unit.repeat(Math.ceil(2_000_100 / unit.length));
  const after = unit.repeat(Math.ceil((5_000_000 - before.length) / unit.length));
  return `${before}${NEEDLE}${after}`;
}

/** What a model does: Read the file from line 1, following each "Continue with offset=N". */
async function pageThrough(session: Session, file: string): Promise<{ lines: string[]; calls: number }> {
  const lines: string[] = [];
  let offset = 1;
  let calls = 0;
  for (;;) {
    calls++;
    const [read] = await session.run([
      { type: 'tool_use', id: `r${calls}`, name: 'Read', input: { file_path: file, offset, limit: 400 } },
    ]);
    const text = contentToText(read!.content);
    expect(read!.is_error, text.slice(0, 300)).toBeUndefined();
    for (const line of text.split('\n')) {
      const m = /^ *(\d+)\t(.*)$/s.exec(line);
      // Only the next line in order counts: a note or reminder is not a numbered line.
      if (m && Number(m[1]) === lines.length + 1) lines.push(m[2]!);
    }
    const next = /Continue with offset=(\d+)/.exec(text);
    if (!next) return { lines, calls };
    expect(Number(next[1])).toBe(lines.length + 1);
    offset = Number(next[1]);
  }
}

/** The rule the preview states: a line of 1 999 or 2 000 characters continues on the next line. */
function unfoldLines(lines: readonly string[]): string {
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    out += lines[i]!;
    if (i < lines.length - 1 && lines[i]!.length < 1_999) out += '\n';
  }
  return out;
}

async function grepSaved(session: Session, file: string, pattern: string): Promise<string> {
  const [grep] = await session.run([
    { type: 'tool_use', id: 'g1', name: 'Grep', input: { pattern, path: file, output_mode: 'content' } },
  ]);
  expect(grep!.is_error).toBeUndefined();
  return contentToText(grep!.content);
}

test('a 5 MB one-line output of an MCP tool is saved folded: paging with Read gives back every character, and Grep finds text past character 2 000 000', async () => {
  const original = bundleLine();
  const session = await createSession({
    cwd,
    homeDir: home,
    families: [fileTools()],
    tools: [dumpTool(() => original)],
  });
  const [dump] = await session.run([{ type: 'tool_use', id: 'd1', name: 'mcp__api__dump', input: {} }]);
  const preview = contentToText(dump!.content);
  const saved = /The full output is saved to (\S+)/.exec(preview)?.[1];
  expect(saved, preview.slice(0, 600)).toBeDefined();
  expect(preview).toContain(`longest line has ${original.length.toLocaleString('en-US')} characters`);
  expect(preview).toMatch(/folded every 2,000 characters: a line of 1,999 or 2,000 characters in the file continues/);
  expect(preview).toContain('not in the output');
  const { lines } = await pageThrough(session, saved!);
  expect(lines.some((l) => l.includes('[line truncated'))).toBe(false);
  expect(unfoldLines(lines)).toBe(original);
  expect(await grepSaved(session, saved!, NEEDLE)).toContain(NEEDLE);
  await session.close();
});

test('a 5 MB minified JSON output is saved re-indented: Read reaches every line whole, the tokens are unchanged, and Grep finds a value past character 2 000 000', async () => {
  // Long values (as an API's descriptions are), so that a model pages through it in few calls.
  const items = Array.from({ length: 3_000 }, (_, i) => ({
    id: i,
    name: `item ${i} ${'ü'.repeat(20)}`,
    description: `${i} ${'lorem ipsum '.repeat(140)}`,
    tags: ['a', 'b'],
    extra: {},
  }));
  let original = JSON.stringify({ items });
  // A big integer that a parse and re-stringify would round: saved as written.
  original = original.replace('"extra":{}', '"extra":{"big":123456789012345678901234567890}');
  const at = original.indexOf('"name"', 2_000_000);
  original = `${original.slice(0, at)}"needle":"${NEEDLE}",${original.slice(at)}`;
  expect(original.length).toBeGreaterThan(5_000_000);
  const session = await createSession({
    cwd,
    homeDir: home,
    families: [fileTools()],
    tools: [dumpTool(() => original)],
  });
  const [dump] = await session.run([{ type: 'tool_use', id: 'd1', name: 'mcp__api__dump', input: {} }]);
  const preview = contentToText(dump!.content);
  const saved = /The full output is saved to (\S+)/.exec(preview)?.[1];
  expect(preview).toMatch(/one JSON value whose longest line has [\d,]+ characters/);
  expect(preview).toMatch(/re-indented .*jq all work on it/);
  const { lines } = await pageThrough(session, saved!);
  expect(lines.some((l) => l.includes('[line truncated'))).toBe(false);
  const reassembled = lines.join('\n');
  expect(JSON.parse(reassembled)).toEqual(JSON.parse(original));
  expect(reassembled).toContain('"big": 123456789012345678901234567890');
  // Only whitespace between tokens differs (no string here holds a space after a , or :).
  expect(reassembled.replace(/\n */g, '').replace(/": /g, '":')).toBe(original);
  expect(await grepSaved(session, saved!, NEEDLE)).toContain(NEEDLE);
  await session.close();
});

test("Bash's saved whole output of a 5 MB line is folded across the pieces it came in: Read gives back every character, Grep finds the needle", async () => {
  const original = bundleLine();
  const script = path.join(root, 'print.mjs');
  await import('node:fs/promises').then((fs) =>
    fs.writeFile(
      script,
      `const unit = ${JSON.stringify('function f(a){return a+"😀"};')};\n` +
        `const before = unit.repeat(Math.ceil(2_000_100 / unit.length));\n` +
        `const after = unit.repeat(Math.ceil((5_000_000 - before.length) / unit.length));\n` +
        `process.stdout.write(before + ${JSON.stringify(NEEDLE)} + after);\n`,
    ),
  );
  const session = await createSession({
    cwd,
    homeDir: home,
    families: [fileTools(), shellTools()],
    permissions: { allow: ['Bash'] },
  });
  const [bash] = await session.run([
    { type: 'tool_use', id: 'b1', name: 'Bash', input: { command: `node ${script}` } },
  ]);
  const text = contentToText(bash!.content);
  const saved = /saved in (\S+);/.exec(text)?.[1];
  expect(saved, text.slice(-800)).toBeDefined();
  expect(text).toContain(`longest line has ${original.length.toLocaleString('en-US')} characters`);
  const whole = await readFile(saved!, 'utf8');
  expect(whole).not.toContain('\uFFFD');
  const { lines } = await pageThrough(session, saved!);
  expect(unfoldLines(lines)).toBe(original);
  expect(await grepSaved(session, saved!, NEEDLE)).toContain(NEEDLE);
  await session.close();
});
