import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fileTokenStore, memoryTokenStore } from './oauth_store.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-token-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('fileTokenStore', () => {
  test('keeps credentials by key in a file only its owner can read, in a folder only its owner can enter', async () => {
    const file = path.join(dir, 'home', '.toolshed', 'mcp-oauth.json');
    const store = fileTokenStore(file);
    expect(await store.load('a')).toBeUndefined();
    await Promise.all([
      store.save('a', { tokens: { access_token: 'A' } }),
      store.save('b', { tokens: { access_token: 'B' } }),
    ]);
    expect(await store.load('a')).toEqual({ tokens: { access_token: 'A' } });
    expect(await fileTokenStore(file).load('b')).toEqual({ tokens: { access_token: 'B' } });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    await store.save('a', undefined);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ b: { tokens: { access_token: 'B' } } });
  });

  test('a file loosened to 0644 by hand is written back as 0600; a file that is not JSON holds nothing and is replaced', async () => {
    const file = path.join(dir, 'mcp-oauth.json');
    await writeFile(file, 'not json', { mode: 0o644 });
    const store = fileTokenStore(file);
    expect(await store.load('a')).toBeUndefined();
    await store.save('a', { codeVerifier: 'v' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await store.load('a')).toEqual({ codeVerifier: 'v' });
  });
});

describe('memoryTokenStore', () => {
  test('hands out copies, so a caller cannot change what is stored', async () => {
    const store = memoryTokenStore();
    await store.save('k', { tokens: { access_token: 'x' } });
    const loaded = await store.load('k');
    loaded!.tokens!.access_token = 'changed';
    expect(await store.load('k')).toEqual({ tokens: { access_token: 'x' } });
  });
});
