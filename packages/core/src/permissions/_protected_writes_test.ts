import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { physicalForms, protectedWriteCheck } from './_protected_writes.ts';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolshed-protected-writes-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

test('protectedWriteCheck protects where a linked ~/.ssh and ~/.gitconfig lead, by the target’s own name', () => {
  const home = join(base, 'home');
  const dotfiles = join(base, 'dotfiles');
  mkdirSync(join(dotfiles, 'ssh'), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(dotfiles, 'gitconfig'), '');
  symlinkSync(join(dotfiles, 'ssh'), join(home, '.ssh'));
  symlinkSync(join(dotfiles, 'gitconfig'), join(home, '.gitconfig'));
  const isProtected = protectedWriteCheck({ homeDir: home });
  expect(isProtected(join(dotfiles, 'ssh', 'authorized_keys'))).toEqual({
    name: 'ssh',
    what: `SSH keys and authorized_keys, as ${home}/.ssh leads here`,
  });
  expect(isProtected(join(dotfiles, 'gitconfig'))?.name).toBe('gitconfig');
  // The links themselves, as before; other files of the dotfiles folder are not protected.
  expect(isProtected(join(home, '.ssh', 'x'))?.name).toBe('.ssh');
  expect(isProtected(join(dotfiles, 'gitconfig.bak'))).toBeUndefined();
  expect(isProtected(join(dotfiles, 'ssh-notes', 'x'))).toBeUndefined();
});

test('physicalForms gives nothing for a path that is no link, and the target for one', () => {
  const real = join(base, 'real-dir');
  mkdirSync(real);
  symlinkSync(real, join(base, 'link-dir'));
  expect(physicalForms(real, base)).toEqual([]);
  expect(physicalForms(join(base, 'link-dir'), base)).toEqual([real]);
});
