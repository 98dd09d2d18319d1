import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { contentToText } from '../blocks.ts';
import { parseRule } from '../permissions/rule_parser.ts';
import { testContext } from '../permissions/_test_context.ts';
import { createSession } from '../session.ts';
import { buildTool } from '../tool.ts';
import { tempDir, use } from '../_test_tools.ts';
import { deniedQuoteGuard, quotedDeniedFile } from './denied_quote_guard.ts';
import { applyTurnBudget, persistLargeResult } from './result_budget.ts';

let box: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  box = await tempDir('toolshed-quote-');
  await writeFile(path.join(box.dir, '.env'), 'API_KEY=hunter2\n');
});
afterEach(() => box.cleanup());

function ctxWith(deny: string[]) {
  return testContext({
    cwd: box.dir,
    permissions: {
      rules: { allow: [], ask: [], deny: deny.map((r) => parseRule(r, { behavior: 'deny', source: 'options' })) },
    },
  });
}

const filler = (n: number) =>
  Array.from({ length: n }, (_, i) => `src/file${i}.ts:${i + 1}:const key = process.env.API_KEY;`).join('\n');

describe('quotedDeniedFile', () => {
  test('quotedDeniedFile finds a denied file in grep lines, lists and diff headers', () => {
    const ctx = ctxWith(['Read(./.env)']);
    for (const text of [
      `${filler(3)}\n./.env:1:API_KEY=hunter2`,
      `${path.join(box.dir, '.env')}:API_KEY=hunter2`,
      'src/a.ts\n.env\nsrc/b.ts',
      'diff --git a/.env b/.env\nindex 1..2\n+API_KEY=hunter2',
      '--- a/src/x.ts\n+++ b/.env',
      'src/../.env:1:x',
    ]) {
      const hit = quotedDeniedFile(text, ctx);
      expect(hit, text).toMatchObject({ path: path.join(box.dir, '.env'), rule: { raw: 'Read(./.env)' } });
    }
  });

  // Outputs of commands run in another folder, coloured, NUL-separated, or headed the way head
  // and tail head each file: the guard missed each, so the output was saved and readable.
  test('finds a denied file quoted from another folder, in colour, NUL-separated, or under a head/tail header', () => {
    const ctx = ctxWith(['Read(./config/.env)']);
    for (const text of [
      // `cd config && grep -rn KEY .`
      `${filler(2)}\n./.env:1:API_KEY=hunter2`,
      // `grep --color=always -rn KEY config`
      `\u001b[35m\u001b[Kconfig/.env\u001b[m\u001b[K\u001b[36m\u001b[K:\u001b[m\u001b[KAPI_KEY=hunter2`,
      // `grep -rnZ KEY config`
      `config/.env\u00001:API_KEY=hunter2`,
      // `head config/.env big.txt`
      '==> config/.env <==\nAPI_KEY=hunter2\n\n==> big.txt <==\nx',
      // CRLF line ends
      `src/a.ts:1:x\r\nconfig/.env:1:API_KEY=hunter2\r\n`,
    ]) {
      expect(quotedDeniedFile(text, ctx)?.path, JSON.stringify(text.slice(0, 60))).toBe(
        path.join(box.dir, 'config/.env'),
      );
    }
  });

  test('quotedDeniedFile finds nothing in output that quotes no denied file, or without deny rules', () => {
    expect(
      quotedDeniedFile(`${filler(50)}\nsrc/env.ts:1:.env is read here`, ctxWith(['Read(./.env)'])),
    ).toBeUndefined();
    expect(quotedDeniedFile('./.env:1:API_KEY=hunter2', ctxWith([]))).toBeUndefined();
    expect(deniedQuoteGuard(ctxWith(['Bash(rm:*)']))).toBeUndefined();
  });

  test('a bare-name rule and a Grep rule count too', () => {
    expect(quotedDeniedFile('deep/dir/.env:1:x', ctxWith(['Read(.env)']))?.rule.raw).toBe('Read(.env)');
    expect(quotedDeniedFile('logs/app.log:3:token', ctxWith(['Grep(./logs/**)']))?.rule.raw).toBe('Grep(./logs/**)');
  });
});

describe('persisting an output that quotes a denied file', () => {
  test('persistLargeResult writes no file for such an output and cuts it with a note saying why', async () => {
    const stateDir = path.join(box.dir, 'state');
    const text = `${filler(2_000)}\n./.env:1:API_KEY=hunter2\n${filler(10)}`;
    const out = await persistLargeResult(text, {
      toolUseId: 't1',
      stateDir,
      maxChars: 5_000,
      refuseToSave: deniedQuoteGuard(ctxWith(['Read(./.env)'])),
    });
    expect(out.persistedPath).toBeUndefined();
    expect(out.notSavedReason).toContain('Read(./.env)');
    const shown = contentToText(out.content);
    expect(shown.length).toBeLessThan(5_600);
    expect(shown).toContain('It was not saved to a file');
    await expect(readdir(stateDir)).rejects.toThrow(/ENOENT/);
    // The same output without the deny rule is saved as usual.
    const saved = await persistLargeResult(text, {
      toolUseId: 't1',
      stateDir,
      maxChars: 5_000,
      refuseToSave: deniedQuoteGuard(ctxWith([])),
    });
    expect(saved.persistedPath).toBeDefined();
  });

  test('the turn budget cuts a refused result to the preview size instead of saving it', async () => {
    const stateDir = path.join(box.dir, 'state');
    const quoting = `./.env:1:API_KEY=hunter2\n${filler(3_000)}`;
    const [a, b] = await applyTurnBudget(
      [
        {
          content: quoting,
          toolUseId: 'a',
          maxChars: 500_000,
          refuseToSave: deniedQuoteGuard(ctxWith(['Read(./.env)'])),
        },
        { content: filler(10), toolUseId: 'b', maxChars: 500_000 },
      ],
      { stateDir, budgetChars: 20_000 },
    );
    expect(a!.persistedPath).toBeUndefined();
    expect(a!.notSavedReason).toBeDefined();
    expect(contentToText(a!.content).length).toBeLessThan(3_000);
    expect(b!.content).toBe(filler(10));
    await expect(readdir(stateDir)).rejects.toThrow(/ENOENT/);
  });

  test('a session never saves a large output that quotes a file its deny rules guard', async () => {
    const quoter = buildTool({
      name: 'Search',
      description: 'returns grep-like lines',
      inputSchema: z.strictObject({}),
      isReadOnly: () => true,
      async call() {
        return { data: `${filler(3_000)}\n./.env:1:API_KEY=hunter2` };
      },
    });
    const stateDir = path.join(box.dir, 'state');
    await mkdir(stateDir);
    const session = await createSession({
      cwd: box.dir,
      stateDir,
      tools: [quoter],
      permissions: { deny: ['Read(./.env)'] },
    });
    const [result] = await session.run([use('t1', 'Search', {})]);
    await session.close();
    expect(contentToText(result!.content)).toContain('"Read(./.env)"');
    expect(await readdir(stateDir)).toEqual([]);
  });
});
