import { expect, test } from 'vitest';
import { isInertGitConfig } from './_inert_git_config.ts';

test('the configs git init, git clone and git remote add write are inert', () => {
  const init = '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n';
  expect(isInertGitConfig(init)).toBe(true);
  expect(isInertGitConfig('')).toBe(true);
  const clone = `${init}[remote "origin"]\n\turl = https://example.com/x.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n`;
  expect(isInertGitConfig(clone)).toBe(true);
  expect(isInertGitConfig('# a comment\n[user]\n\tname = T\n\temail = t@example.com ; trailing\n')).toBe(true);
});

test('a config that could run a program, or that the reader does not understand, is not inert', () => {
  for (const text of [
    '[alias]\n\tst = !touch /tmp/x\n',
    '[core]\n\tfsmonitor = touch /tmp/x\n',
    '[core]\n\tpager = touch /tmp/x\n',
    '[core]\n\thooksPath = ../evil\n',
    '[core]\n\tsshCommand = evil\n',
    '[core]\n\tworktree = /home/u\n',
    '[include]\n\tpath = ../evil.cfg\n',
    '[includeIf "gitdir:/"]\n\tpath = ../evil.cfg\n',
    '[submodule "lib"]\n\tupdate = !evil\n',
    '[filter "x"]\n\tclean = evil\n',
    '[credential]\n\thelper = !evil\n',
    '[remote "origin"]\n\turl = ext::sh -c evil\n',
    // Quotes anywhere in a value are dropped by git; a branch's remote may be an address itself.
    '[remote "origin"]\n\turl = e"xt::sh -c evil"\n',
    '[remote "origin"]\n\turl = "ext"::evil\n',
    '[branch "main"]\n\tremote = ext::sh -c evil\n',
    '[remote "origin"]\n\tuploadpack = evil\n',
    // A value that goes on on the next line, an old-style subsection, a section with a subsection it never takes.
    '[user]\n\tname = a\\\n\tb\n',
    '[remote.origin]\n\turl = x\n',
    '[core "x"]\n\tbare = false\n',
    // A bare key (true) and a line that is no setting.
    '[core]\n\tbare\n',
    '[core]\n\t= x\n',
    'fsmonitor = evil\n',
  ]) {
    expect(isInertGitConfig(text), text).toBe(false);
  }
});
